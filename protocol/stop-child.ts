/**
 * Ending a child process politely, then firmly: SIGTERM, and SIGKILL if it has not ended once the
 * grace is over. Every layer that owns processes (the harness's backends, the suites' drivers, the
 * CLI's reaping) escalates the same way.
 */
import type { Clock } from './clock.js';

/** The process (or group of processes) to end, as its owner sees it. */
export interface StopTarget {
  /** Sends a signal; must not throw when the process is already gone. */
  signal(name: 'SIGTERM' | 'SIGKILL'): void;
  /**
   * Started right after SIGTERM: settles once the process has ended. Never rejects. A waiter that
   * polls should stop when `stopChild` has returned, since it may outlive the grace.
   */
  ended(): Promise<unknown>;
}

/**
 * Sends SIGTERM, waits up to `graceMs` (on `clock`) for `ended`, and sends SIGKILL when the grace
 * ran out first. Resolves as soon as either happened, with whether SIGKILL was sent; whether to
 * wait for the killed process to go is the caller's choice.
 */
export async function stopChild(
  target: StopTarget,
  graceMs: number,
  clock: Pick<Clock, 'sleep'>,
): Promise<boolean> {
  target.signal('SIGTERM');
  const graceOver = new AbortController();
  const first = await Promise.race([
    target.ended().then(() => 'ended' as const),
    clock.sleep(graceMs, graceOver.signal).then(
      () => 'grace' as const,
      () => 'grace' as const,
    ),
  ]);
  graceOver.abort();
  if (first === 'ended') return false;
  target.signal('SIGKILL');
  return true;
}
