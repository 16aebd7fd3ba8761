import type { CliIo } from '../io.js';

/** One subcommand: its name, a one-line summary, its help text, and what it does. */
export interface Command {
  name: string;
  summary: string;
  help: string;
  run(args: readonly string[], io: CliIo): Promise<number>;
}
