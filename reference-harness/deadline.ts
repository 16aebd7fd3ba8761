import { scheduleOn, type Clock } from '../protocol/clock.js';
import type { CallBudget } from './budget.js';
import { Cancellation, type CancelView } from './cancellation.js';
import { DeadlineExpired, stopReasonOf, type StopReason } from './interruption.js';

/**
 * One deadline for one subscription delivery, covering auth, connection, send, processing,
 * parsing and acceptance (and every retry). Its effective end is the earlier of its own timeout
 * and the call budget; when the budget is the earlier one, expiry is reported as the call's.
 */
export interface SubscriptionDeadline {
  /** Cancelled with `DeadlineExpired` (own timeout) or the call's `CallInterrupted` reason. */
  readonly cancellation: CancelView;
  /** The same as `cancellation`, as a standard AbortSignal (made on first use). */
  readonly signal: AbortSignal;
  readonly startedAt: number;
  /** Monotonic end of this delivery (the earlier of the timeout and the call budget). */
  readonly deadlineAt: number;
  /**
   * Re-reads the clock and the signals: `undefined` while work may go on. Used before publishing
   * acceptance, so a reply that beat the timer callback but not the deadline is still refused.
   */
  check(): StopReason | undefined;
  dispose(): void;
}

/** One reason object for every expiry: it carries no per-call data, and making one is not free. */
const EXPIRED = new DeadlineExpired();

/** Starts a subscription deadline of `timeoutMs` inside `call`. */
export function startSubscriptionDeadline(
  clock: Clock,
  call: CallBudget,
  timeoutMs: number,
): SubscriptionDeadline {
  const cancellation = new Cancellation();
  const startedAt = clock.now();
  const ownDeadlineAt = startedAt + timeoutMs;
  // When both fall due together the call's budget wins: interruption overrides policy.
  const ownIsEarlier = ownDeadlineAt < call.deadlineAt;
  const deadlineAt = Math.min(ownDeadlineAt, call.deadlineAt);
  let stopTimer: (() => void) | undefined;
  let detachCall: (() => void) | undefined;
  const release = (): void => {
    stopTimer?.();
    detachCall?.();
    stopTimer = undefined;
    detachCall = undefined;
  };

  const expire = (): void => {
    cancellation.abort(EXPIRED);
    release();
  };
  const onCall = (): void => {
    cancellation.abort(call.cancellation.reason);
    release();
  };

  if (call.cancellation.aborted) onCall();
  else {
    detachCall = call.cancellation.onAbort(onCall);
    if (ownIsEarlier) stopTimer = scheduleOn(clock, timeoutMs, expire);
  }

  const check = (): StopReason | undefined => {
    if (call.ending() !== undefined) onCall();
    else if (ownIsEarlier && clock.now() >= ownDeadlineAt) expire();
    return stopReasonOf(cancellation);
  };

  return {
    cancellation,
    get signal() {
      return cancellation.signal;
    },
    startedAt,
    deadlineAt,
    check,
    dispose: release,
  };
}
