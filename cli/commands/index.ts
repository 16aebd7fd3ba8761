import type { CommandEntry } from './registry.js';

/** Every subcommand, in the order `--help` lists them; each module loads when its command runs. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'harness',
    summary: 'run the harness suite against a driver (default: the bundled reference harness)',
    load: async () => (await import('./harness.js')).harnessCommand,
  },
  {
    name: 'backend',
    summary: 'self-certify an AHP backend (stdio command or HTTP URL) and write its report',
    load: async () => (await import('./backend.js')).backendCommand,
  },
  {
    name: 'merge',
    summary: 'merge the partial reports of a sharded run (--shard <i>/<n>) into one report and verdict',
    load: async () => (await import('./merge.js')).mergeCommand,
  },
  {
    name: 'diff',
    summary:
      'compare two JSON reports case by case: regressed, fixed, newly untested (exit 1 on a regression)',
    load: async () => (await import('./diff.js')).diffCommand,
  },
  {
    name: 'mock-backend',
    summary: 'run a programmable misbehaving AHP backend over stdio or HTTP',
    load: async () => (await import('./mock-backend.js')).mockBackendCommand,
  },
  {
    name: 'validate',
    summary: 'check registration documents and wire messages (JSON or NDJSON files)',
    load: async () => (await import('./validate.js')).validateCommand,
  },
  {
    name: 'list',
    summary: 'list every case with its requirement IDs, level and transports (runs nothing)',
    load: async () => (await import('./list.js')).listCommand,
  },
  {
    name: 'explain',
    summary: 'print what the suite knows about one requirement ID: sentence, cases, twins, behaviours',
    load: async () => (await import('./explain.js')).explainCommand,
  },
];
