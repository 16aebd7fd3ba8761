import { backendCommand } from './backend.js';
import { harnessCommand } from './harness.js';
import { listCommand } from './list.js';
import { mockBackendCommand } from './mock-backend.js';
import type { Command } from './registry.js';
import { validateCommand } from './validate.js';

/** Every subcommand, in the order `--help` lists them. */
export const COMMANDS: readonly Command[] = [
  harnessCommand,
  backendCommand,
  mockBackendCommand,
  validateCommand,
  listCommand,
];
