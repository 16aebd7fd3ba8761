import { constants } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { bounded, FileSystemStepTimedOut } from '../file-system-bound.js';
import { UsageError } from '../io.js';

/** An error with the code a failed file-system call carries. */
function codeError(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(code), { code });
}

/**
 * Creates `dir` and its missing parents one level at a time, each step bounded. Node's own
 * `mkdir(dir, { recursive: true })` never returns for a path under /proc (it retries the parent
 * for ever), so it is not used.
 */
async function makeDirectory(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    try {
      if (!(await bounded(stat(at))).isDirectory()) throw codeError('ENOTDIR');
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(at) === at) throw error;
      missing.push(at);
    }
  }
  for (const level of missing.reverse()) {
    try {
      await bounded(mkdir(level));
    } catch (error) {
      // Another process may create the same folder at the same time.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/**
 * Creates the output directory and checks that it can be written, so a bad `--output-dir` is a
 * usage error before the run rather than a lost report after it.
 */
export async function prepareOutputDir(dir: string, shown: string): Promise<void> {
  try {
    await makeDirectory(dir);
    await bounded(access(dir, constants.W_OK));
  } catch (error) {
    if (error instanceof FileSystemStepTimedOut) {
      throw new UsageError(
        `the output directory "${shown}" did not answer within ${error.ms / 1000} s; pass a directory on a local, writable disk with --output-dir.`,
      );
    }
    const code = (error as NodeJS.ErrnoException).code ?? 'unwritable';
    throw new UsageError(
      `cannot write reports to the output directory "${shown}" (${code}); pass a writable directory with --output-dir.`,
    );
  }
}
