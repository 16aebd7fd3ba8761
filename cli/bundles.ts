import { build, type Metafile } from 'esbuild';
import { existsSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The programs spawned often (the stdio mock, the reference driver) run from esbuild bundles in
// dist/: a spawn then costs a Node boot (~100 ms here) instead of Node plus tsx (~350 ms), which
// decides whether per_event cases fit the suite's time budget. Their spawners fall back to tsx
// when a bundle is missing; `ensureBundles` rebuilds stale ones so a bundle never lags its source.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');

/** Source entry -> bundle file name under dist/. */
export const BUNDLE_ENTRIES: Readonly<Record<string, string>> = {
  'mock-backend/shells/stdio-main.ts': 'mock-stdio.mjs',
  'reference-harness/driver/main.ts': 'reference-driver.mjs',
};

function metaPath(out: string): string {
  return join(DIST, `${out}.meta.json`);
}

/** True when the bundle exists and no input of its last build is newer than it. */
export function bundleIsFresh(out: string): boolean {
  const bundle = join(DIST, out);
  if (!existsSync(bundle) || !existsSync(metaPath(out))) return false;
  const builtAt = statSync(bundle).mtimeMs;
  const meta = JSON.parse(readFileSync(metaPath(out), 'utf8')) as Metafile;
  return Object.keys(meta.inputs).every((input) => {
    const file = join(ROOT, input);
    return existsSync(file) && statSync(file).mtimeMs <= builtAt;
  });
}

async function buildOne(source: string, out: string): Promise<void> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [source],
    outfile: join(DIST, out),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Dependencies stay in node_modules: a bundle holds only our code.
    packages: 'external',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
    banner: { js: `// Generated from ${source} by cli/bundles.ts; do not edit.` },
  });
  writeFileSync(metaPath(out), JSON.stringify(result.metafile));
}

/** Builds every missing or stale bundle (all of them with `force`). */
export async function ensureBundles(options: { force?: boolean } = {}): Promise<void> {
  mkdirSync(DIST, { recursive: true });
  await Promise.all(
    Object.entries(BUNDLE_ENTRIES)
      .filter(([, out]) => options.force === true || !bundleIsFresh(out))
      .map(([source, out]) => buildOne(source, out)),
  );
}
