/**
 * A mock started from a script must not outlive the script: npm's `npx` chain, for one, does not
 * pass a SIGTERM on to the node process it started, which is then adopted by init and serves on.
 * So a mock process watches the process that started it and ends once that one is gone.
 */
import { fstatSync } from 'node:fs';

/** How often the parent pid is compared with the one at start (a getter over getppid(2)). */
export const OWNER_POLL_MS = 500;

/**
 * Calls `onGone` once the parent of `proc` is no longer `parent` (it exited and the process was
 * adopted). Pass the parent read when the process started: one that died while this process was
 * still loading would otherwise go unnoticed. The timer is referenced on purpose: while it runs,
 * the process stays up even with nothing else pending (a hanging exchange). Returns the function
 * that stops it.
 */
export function watchParent(
  proc: Pick<NodeJS.Process, 'ppid'>,
  onGone: () => void,
  parent = proc.ppid,
  intervalMs = OWNER_POLL_MS,
): () => void {
  const timer = setInterval(() => {
    if (proc.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  return () => clearInterval(timer);
}

/** Whether `fd` is a pipe or a socket (what a parent hands a child it talks to), not a file or a terminal. */
export function isPipe(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}
