import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { bounded } from '../file-system-bound.js';
import { UsageError } from '../io.js';
import { parseKnownFailures, type KnownFailures } from './parse.js';

/** Reads and parses a `--known-failures` file; any problem is a UsageError (exit 2) before anything runs. */
export async function loadKnownFailures(path: string, shown: string = path): Promise<KnownFailures> {
  let text: string;
  try {
    text = await bounded(readFile(path, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(
      `cannot read the known-failures file "${shown}" (${code}); check the path given to --known-failures.`,
    );
  }
  const parsed = parseKnownFailures(text, shown);
  if (!parsed.ok) throw new UsageError(parsed.message);
  return { ...parsed.baseline, path, sha256: createHash('sha256').update(text).digest('hex') };
}
