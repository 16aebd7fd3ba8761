import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Loader, Plugin } from 'esbuild';
import { contentDigest, bundleIsFresh as freshUnder, inputsFile } from '../bin/bundle-freshness.mjs';
import { bundleEsm } from '../protocol/esm-bundle.js';

// The programs started often (the reference driver, the CLI itself) run from esbuild bundles in
// dist/: a start then costs a Node boot instead of Node plus tsx compiling the module graph, and
// starts are what a harness run's time is made of (scripts/bench-harness.ts measures it).
// Their starters fall back to tsx when a bundle is missing (the CLI also when it is stale);
// `ensureBundles` rebuilds stale ones so a bundle never lags its source. A bundle is stale when
// the content of an input differs from what it was built from (dist/<bundle>.inputs.json records
// digests).

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');

/** Source entry -> bundle file name under dist/. */
export const BUNDLE_ENTRIES: Readonly<Record<string, string>> = {
  'reference-harness/driver/main.ts': 'reference-driver.mjs',
  'cli/main.ts': 'cli.mjs',
};

/**
 * Bundles that carry their dependencies too. A suite run starts the reference driver dozens of
 * times, and resolving and compiling its dependencies from node_modules would be a large part of
 * each start. The CLI keeps its dependencies (vitest cannot be bundled). (Stdio mock processes run from a bundle of their own that the mock library builds in
 * the temp directory: mock-backend/control/stdio-entry.ts.)
 */
const SELF_CONTAINED: ReadonlySet<string> = new Set(['reference-driver.mjs']);

/** True when the bundle exists and every input of its last build still has the content it had. */
export function bundleIsFresh(out: string): boolean {
  return freshUnder(ROOT, out);
}

/** A bundled file's path as esbuild's metafile names its inputs: from the root, with slashes. */
function inputName(path: string): string {
  return relative(ROOT, path).split(sep).join('/');
}

const LOADERS: Readonly<Record<string, Loader>> = { '.ts': 'ts', '.mts': 'ts', '.js': 'js', '.mjs': 'js' };

// Spelled in two parts: this file is bundled too, and the literal would be rewritten in it.
const META_URL = 'import.meta' + '.url';

/**
 * Bundles split into an entry and lazily loaded chunks (dist/<name>.chunk-*.mjs, beside the entry:
 * the import.meta.url a module gets is written relative to dist/, whichever chunk it lands in).
 * The CLI loads a command's modules only when that command runs, and esbuild hoists the imports of dependencies
 * to the top of an unsplit bundle: `--version`, `validate` and `mock-backend` then loaded vitest,
 * vite and the suites (seconds of CPU and ~30 MB of heap).
 */
const SPLIT: ReadonlySet<string> = new Set(['cli.mjs']);

/**
 * A self-contained ES module bundle still meets `require` in the CommonJS dependencies it inlines
 * (cross-spawn requires node:child_process); this gives them Node's.
 */
const REQUIRE_SHIM = `import { createRequire as __ahpCreateRequire } from 'node:module';\nconst require = __ahpCreateRequire(${META_URL});`;

/**
 * Loads our sources for a bundle and records the digest of exactly the text bundled (into
 * `digests`, by input name), so a check after the build cannot hash a newer edit instead.
 * It also gives every bundled module of ours the import.meta.url it has when run from source (its
 * source file's URL, written relative to the bundle so the package can move): modules find
 * package.json and their sibling files relative to themselves, and in one file in dist/ those
 * paths would all start from dist/. Only `.url` is rewritten, so reading another property of
 * import.meta stops the build.
 */
function ourSources(digests: Map<string, string>): Plugin {
  return {
    name: 'our-sources',
    setup(build) {
      build.onLoad({ filter: /\.[mc]?[jt]s$/, namespace: 'file' }, (args) => {
        const loader = LOADERS[extname(args.path)];
        if (loader === undefined) return undefined;
        const bytes = readFileSync(args.path);
        digests.set(inputName(args.path), contentDigest(bytes));
        const text = bytes.toString('utf8');
        if (/\bimport\.meta\.(?!url\b)[$\w]/.test(text)) {
          throw new Error(`${args.path}: of import.meta, a bundle keeps the url only`);
        }
        const url = `new URL(${JSON.stringify(relative(DIST, args.path).split(sep).join('/'))}, ${META_URL}).href`;
        return { contents: text.replaceAll(META_URL, url), loader };
      });
    },
  };
}

/**
 * Writes `text` to `file` through a rename, so a process starting meanwhile (a test, another run)
 * reads the old bundle or the new one, never half of one.
 */
function writeWhole(file: string, text: Uint8Array | string): void {
  const partial = `${file}.${process.pid}.partial`;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(partial, text);
  renameSync(partial, file);
}

async function buildOne(source: string, out: string): Promise<void> {
  const digests = new Map<string, string>();
  const result = await bundleEsm({
    entry: source,
    workingDir: ROOT,
    out: SPLIT.has(out)
      ? { outdir: DIST, entryName: basename(out, '.mjs'), chunkNames: `${chunkPrefix(out)}[name]-[hash]` }
      : { outfile: join(DIST, out) },
    // Dependencies stay in node_modules unless the bundle is self-contained.
    external: !SELF_CONTAINED.has(out),
    sourcemap: true,
    plugins: [ourSources(digests)],
    banner: `// Generated from ${source} by cli/bundles.ts; do not edit.${SELF_CONTAINED.has(out) ? `\n${REQUIRE_SHIM}` : ''}`,
  });
  // Inputs the plugin did not load (none today) are hashed as they are now. Dependencies a
  // self-contained bundle inlines are not recorded: an installed package finds them elsewhere
  // (hoisted), and they change only through an install, whose `prepare` rebuilds every bundle.
  const inputs = Object.fromEntries(
    Object.keys(result.metafile.inputs)
      .filter((input) => !input.split('/').includes('node_modules'))
      .map((input) => [input, digests.get(input) ?? contentDigest(readFileSync(join(ROOT, input)))]),
  );
  // Source maps before the code that names them, chunks (content-named) before the entry that
  // imports them, the inputs last (until they are written, the previous build's inputs judge the
  // new bundle, and a source changed since fails that check).
  const entry = join(DIST, out);
  const maps = result.files.filter((file) => file.path.endsWith('.map'));
  const code = result.files.filter((file) => !file.path.endsWith('.map'));
  const chunks = code.filter((file) => file.path !== entry);
  const entries = code.filter((file) => file.path === entry);
  for (const file of [...maps, ...chunks, ...entries]) writeWhole(file.path, file.contents);
  writeWhole(inputsFile(ROOT, out), `${JSON.stringify({ inputs }, null, 1)}\n`);
  if (SPLIT.has(out)) removeStaleChunks(out, new Set(result.files.map((file) => file.path)));
}

/** How the chunk files of a split bundle are named in dist/. */
function chunkPrefix(out: string): string {
  return `${basename(out, '.mjs')}.chunk-`;
}

/** Deletes the chunks of earlier builds: the new entry names none of them. */
function removeStaleChunks(out: string, written: ReadonlySet<string>): void {
  for (const name of readdirSync(DIST)) {
    const path = join(DIST, name);
    if (name.startsWith(chunkPrefix(out)) && !written.has(path)) rmSync(path, { force: true });
  }
}

/**
 * Builds every missing or stale bundle (all of them with `force`); `onBuild` hears which, before
 * a build that can take seconds starts.
 */
export async function ensureBundles(
  options: { force?: boolean; onBuild?: (outs: string[]) => void } = {},
): Promise<void> {
  mkdirSync(DIST, { recursive: true });
  const stale = Object.entries(BUNDLE_ENTRIES).filter(
    ([, out]) => options.force === true || !bundleIsFresh(out),
  );
  if (stale.length > 0) options.onBuild?.(stale.map(([, out]) => out));
  await Promise.all(stale.map(([source, out]) => buildOne(source, out)));
}
