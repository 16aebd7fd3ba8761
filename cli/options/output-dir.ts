import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { UsageError } from '../io.js';

/**
 * Creates the output directory and checks that it can be written, so a bad `--output-dir` is a
 * usage error before the run rather than a lost report after it.
 */
export async function prepareOutputDir(dir: string, shown: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unwritable';
    throw new UsageError(
      `cannot write reports to the output directory "${shown}" (${code}); pass a writable directory with --output-dir.`,
    );
  }
}
