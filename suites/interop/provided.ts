/** What the CLI hands the interop suite file through vitest's `provide`: the absolute scenario path. */
export const INTEROP_PATH_KEY = 'ahpInteropPath' as const;

/** The suite file the CLI runs for `harness --interop`. */
export const INTEROP_SUITE_GLOB = 'suites/interop/**/*.conformance.ts';

declare module 'vitest' {
  interface ProvidedContext {
    ahpInteropPath: string;
  }
}
