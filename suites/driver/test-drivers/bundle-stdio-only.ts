import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Bundles the stdio-only driver into one program under node_modules/.cache (where Node still
 * resolves the package's dependencies), so each of the dozens of drivers a run starts boots like
 * the bundled reference driver instead of through tsx. Resolves with its argv.
 */
export async function bundleStdioOnlyDriver(): Promise<string[]> {
  const dir = join(ROOT, 'node_modules', '.cache', 'ahp-conformance');
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, `stdio-only-driver-${process.pid}.mjs`);
  await build({
    absWorkingDir: ROOT,
    entryPoints: ['suites/driver/test-drivers/stdio-only-driver.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return [process.execPath, outfile];
}
