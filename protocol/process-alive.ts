/**
 * Whether a process still runs, the one check every layer uses (the mock's process list, the
 * suites' reaping and ownership checks, the test support of each product).
 */
import { readFileSync } from 'node:fs';

/** The state letter of a Linux process (R, S, D, Z, X...), or undefined without /proc. */
function linuxState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) S ...": comm may hold spaces or parentheses, the state follows the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return undefined;
  }
}

/**
 * True while a process with this PID runs: it exists (signal 0 tests without signalling; EPERM
 * means it exists but is not ours to signal) and has not ended (a zombie has ended: only its
 * parent's wait is due).
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  const state = linuxState(pid);
  return state !== 'Z' && state !== 'X';
}
