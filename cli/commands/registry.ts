import type { CliIo } from '../io.js';

/** One subcommand: its name, its help text, and what it does. */
export interface Command {
  name: string;
  help: string;
  /** Every flag its parser accepts: the docs test checks that `help` names exactly these. */
  flags: readonly string[];
  run(args: readonly string[], io: CliIo): Promise<number>;
}

/**
 * A subcommand as the CLI lists it: loaded only when it is the one that runs, so that
 * `mock-backend`, `validate`, `list` and `--version` never load vitest, vite and the suites.
 */
export interface CommandEntry {
  name: string;
  /** One line for `--help`. */
  summary: string;
  load(): Promise<Command>;
}
