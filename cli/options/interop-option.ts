/**
 * `--interop <file or folder>` of `harness` and `list`: the protocol authors' interop scenarios,
 * read from the user's checkout. The path is checked and every file validated before anything
 * runs, so a file this version cannot read is one usage error (exit 2), not a run of failures.
 */
import { resolve } from 'node:path';
import { z } from 'zod';
import { InteropInputError, loadInterop, type InteropSet } from '../../suites/interop/index.js';
import { UsageError } from '../io.js';
import type { FlagSpec } from './argv.js';

export const INTEROP_FLAG: Readonly<Record<string, FlagSpec>> = {
  '--interop': { key: 'interop', kind: 'value', placeholder: '<file or folder>' },
};

export const INTEROP_HELP = `  --interop <file or folder>      run the protocol authors' interop scenarios instead of the suite:
                                  the interop folder of a checkout of the protocol repository, or
                                  one of its scenario files (docs/interop.md)`;

/** The option as the schema reads it: absent, or a non-empty path. */
export const interopOptionSchema = z.string().trim().min(1).optional();

/** The loaded scenarios and their absolute path, or undefined without `--interop`. */
export async function resolveInterop(
  raw: unknown,
  cwd: string,
): Promise<{ path: string; sets: InteropSet[] } | undefined> {
  const parsed = interopOptionSchema.safeParse(raw);
  if (!parsed.success)
    throw new UsageError('--interop must be a path, e.g. --interop ../agent-hooks-protocol/interop.');
  if (parsed.data === undefined) return undefined;
  try {
    return { path: resolve(cwd, parsed.data), sets: await loadInterop(parsed.data, cwd) };
  } catch (error) {
    if (error instanceof InteropInputError) throw new UsageError(error.message);
    throw error;
  }
}
