/**
 * How a stdio mock process is started. `stdio-main.ts` through tsx always works, but tsx costs
 * several times node's own boot, paid once per event by per_event harnesses. So the same entry
 * is bundled once (the package's one bundler, protocol/esm-bundle.ts) into plain JS in the temp
 * directory, content-addressed so concurrent runs share it; without esbuild we fall back to tsx.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleEsm } from '../../protocol/esm-bundle.js';

/** Absolute path of the stdio mock entry. */
export const STDIO_MAIN_PATH = fileURLToPath(new URL('../shells/stdio-main.ts', import.meta.url));

/** `tsx`: node --import tsx stdio-main.ts; `bundle`: node on the bundled JS; `auto`: the bundle when it can be built. */
export type StdioEntryKind = 'auto' | 'tsx' | 'bundle';

/** `file:` URL of tsx's loader, so the command works whatever the child's working directory. */
export function tsxLoaderUrl(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
}

/** The node arguments that run the stdio mock entry (the caller appends the mock's own arguments). */
export async function stdioEntryArgs(kind: StdioEntryKind): Promise<string[]> {
  if (kind !== 'tsx') {
    const bundle = await bundledStdioMain();
    if (bundle) return [bundle];
    if (kind === 'bundle')
      throw new Error('the stdio mock entry could not be bundled (is esbuild installed?)');
  }
  return ['--import', tsxLoaderUrl(), STDIO_MAIN_PATH];
}

let bundled: Promise<string | undefined> | undefined;

/** Path of the bundled entry, built at most once per process; undefined when esbuild is unavailable. */
export function bundledStdioMain(): Promise<string | undefined> {
  bundled ??= buildBundle().catch(() => undefined);
  return bundled;
}

async function buildBundle(): Promise<string> {
  const outdir = join(tmpdir(), 'ahp-mock-build');
  // Split: lazy imports (the --scenario path: zod, engine) become chunks the control path never loads.
  const result = await bundleEsm({
    entry: STDIO_MAIN_PATH,
    out: { outdir },
    external: false,
    logLevel: 'silent',
  });
  const files = result.files.map((f) => ({ path: relative(outdir, f.path), contents: f.contents }));
  const hash = createHash('sha256');
  for (const f of files) hash.update(f.path).update(f.contents);
  const dir = join(tmpdir(), `ahp-mock-stdio-${hash.digest('hex').slice(0, 16)}`);
  const main = join(dir, 'stdio-main.mjs');
  if (existsSync(main)) return main;
  // Written beside, then renamed into place: a concurrent run sees all files or none.
  const staging = `${dir}.${process.pid}.${Date.now()}`;
  for (const f of files) {
    await mkdir(dirname(join(staging, f.path)), { recursive: true });
    await writeFile(join(staging, f.path), f.contents);
  }
  try {
    await rename(staging, dir);
  } catch {
    await rm(staging, { recursive: true, force: true });
  }
  if (!existsSync(main)) throw new Error('the bundled stdio entry was not written');
  return main;
}
