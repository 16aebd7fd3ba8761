/**
 * The one esbuild bundler of the package: our TypeScript entries into ES modules for Node, in
 * memory. The CLI's bundles in dist/, the stdio mock's bundle in the temp directory and the test
 * drivers' bundles each add only where they write and how they name the result. It lives here,
 * below every layer, because the mock backend (which imports only this layer) bundles its own
 * stdio entry.
 */
import type { BuildOptions, Metafile, OutputFile } from 'esbuild';

/** What to bundle and how; everything else is the same for every bundle we make. */
export interface EsmBundleOptions {
  /** The entry, absolute or from `workingDir`. */
  entry: string;
  /** The directory relative paths (the entry, the metafile's inputs) are read from. */
  workingDir?: string;
  /** One file (`outfile`), or an entry plus lazily loaded chunks under `outdir`. */
  out: { outfile: string } | { outdir: string; entryName?: string; chunkNames?: string };
  /** Leave dependencies in node_modules (true), or carry them inside the bundle (false). */
  external: boolean;
  sourcemap?: boolean;
  banner?: string;
  plugins?: BuildOptions['plugins'];
  /** esbuild's log level: warnings by default. */
  logLevel?: BuildOptions['logLevel'];
}

/** The files a bundle is made of (code, and source maps when asked), and its metafile. */
export interface EsmBundle {
  files: OutputFile[];
  metafile: Metafile;
}

/** Bundles one entry; nothing is written, the caller decides where the files go. */
export async function bundleEsm(options: EsmBundleOptions): Promise<EsmBundle> {
  // Loaded here: a program that runs from a bundle needs esbuild only when it builds one.
  const { build } = await import('esbuild');
  const out: BuildOptions =
    'outfile' in options.out
      ? { entryPoints: [options.entry], outfile: options.out.outfile }
      : {
          entryPoints: [
            options.out.entryName === undefined
              ? options.entry
              : { in: options.entry, out: options.out.entryName },
          ],
          outdir: options.out.outdir,
          outExtension: { '.js': '.mjs' },
          splitting: true,
          ...(options.out.chunkNames === undefined ? {} : { chunkNames: options.out.chunkNames }),
        };
  const result = await build({
    ...(options.workingDir === undefined ? {} : { absWorkingDir: options.workingDir }),
    ...out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    ...(options.external ? { packages: 'external' as const } : {}),
    ...(options.sourcemap ? { sourcemap: 'linked' as const } : {}),
    ...(options.banner === undefined ? {} : { banner: { js: options.banner } }),
    ...(options.plugins === undefined ? {} : { plugins: options.plugins }),
    metafile: true,
    write: false,
    logLevel: options.logLevel ?? 'warning',
  });
  // esbuild's service process is left to esbuild: it is unref'd (never holds the process open)
  // and may be shared with other esbuild users in this process, so stopping it here could fail theirs.
  return { files: result.outputFiles, metafile: result.metafile };
}
