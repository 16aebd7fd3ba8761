/**
 * A bound on one file-system step. A step can hang for good: Node's recursive mkdir spins under
 * /proc, a dead network mount never answers. Such a call cannot be cancelled, so the step is given
 * up after its bound, and the CLI then ends its process itself instead of waiting for the call.
 */

/** How long one step (a mkdir, a stat, one report file's write) may take on a healthy disk. */
export const FILE_SYSTEM_STEP_MS = 10_000;

/** A step that did not finish within its bound. */
export class FileSystemStepTimedOut extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms / 1000} s`);
    this.name = 'FileSystemStepTimedOut';
    Object.assign(this, { code: 'ETIMEDOUT' });
  }
}

let abandoned = 0;

/** How many steps were given up while still pending: each keeps the process alive until it ends. */
export function abandonedFileSystemSteps(): number {
  return abandoned;
}

/** `step`, or a `FileSystemStepTimedOut` (code ETIMEDOUT) once `ms` have passed without it. */
export async function bounded<T>(step: Promise<T>, ms = FILE_SYSTEM_STEP_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abandoned += 1;
      reject(new FileSystemStepTimedOut(ms));
    }, ms);
  });
  try {
    return await Promise.race([step, late]);
  } finally {
    clearTimeout(timer);
  }
}
