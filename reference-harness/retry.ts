import type { Clock } from '../protocol/clock.js';
import type { SubscriptionDeadline } from './deadline.js';
import { ABORTED, raceSignal } from './cancellation.js';
import type { StopReason } from './interruption.js';

/** How one delivery went, attempt by attempt, under one deadline. */
export interface RetryRun<R> {
  /** Sends started. */
  attempts: number;
  /** The last completed attempt's value (absent when none completed). */
  last?: R;
  /** Set when the deadline or the call's ending cut the run (the last attempt's value is then void). */
  stopped?: StopReason;
}

export interface RetryOptions<R> {
  clock: Clock;
  deadline: SubscriptionDeadline;
  /** Extra attempts allowed after an operational failure (0 = send once). */
  retries: number;
  backoffMs: number;
  /** One send; must resolve (failures are values). `attempt` counts from 1. */
  attempt: (attempt: number) => Promise<R>;
  /** True for an operational failure; a valid deny and a successful `[]` are never retried. */
  isFailure: (value: R) => boolean;
}

/**
 * Runs an attempt and its retries inside one deadline. A retry starts only after an operational
 * failure and only while the original deadline remains, with room for the backoff; nothing here
 * resets or extends that deadline. The deadline is re-checked after every attempt so a value that
 * completed too late is reported as stopped, never accepted.
 */
export async function runWithRetries<R>(options: RetryOptions<R>): Promise<RetryRun<R>> {
  const { clock, deadline } = options;
  let last: R | undefined;
  for (let attempt = 1; ; attempt++) {
    const before = deadline.check();
    if (before !== undefined) return withLast({ attempts: attempt - 1, stopped: before }, last);
    // Raced directly (no wrapping result object): this runs once per delivery, on the hot path.
    const value = await raceSignal(options.attempt(attempt), deadline.cancellation);
    const after = deadline.check();
    if (value === ABORTED || after !== undefined)
      return withLast({ attempts: attempt, stopped: after ?? 'deadline' }, last);
    last = value;
    if (!options.isFailure(last) || attempt > options.retries) return { attempts: attempt, last };
    // A retry that could not even start before the deadline is not attempted.
    if (clock.now() + options.backoffMs >= deadline.deadlineAt) return { attempts: attempt, last };
    if (options.backoffMs > 0) {
      try {
        await clock.sleep(options.backoffMs, deadline.signal);
      } catch {
        const stopped = deadline.check();
        // Only the call's ending cuts a backoff short; an own-deadline tie keeps the real failure.
        if (stopped !== undefined && stopped !== 'deadline') return { attempts: attempt, last, stopped };
        return { attempts: attempt, last };
      }
    }
  }
}

function withLast<R>(run: RetryRun<R>, last: R | undefined): RetryRun<R> {
  // An earlier failed attempt is kept for diagnostics; `stopped` says it was not the end.
  if (last !== undefined) run.last = last;
  return run;
}
