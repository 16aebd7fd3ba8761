import type { Clock } from '../protocol/clock.js';
import type { CallBudget } from './budget.js';
import { DeadlineExpired, stopReasonOf, type StopReason } from './interruption.js';

/**
 * One deadline for one subscription delivery, covering auth, connection, send, processing,
 * parsing and acceptance (and every retry). Its effective end is the earlier of its own timeout
 * and the call budget; when the budget is the earlier one, expiry is reported as the call's.
 */
export interface SubscriptionDeadline {
  /** Aborted with `DeadlineExpired` (own timeout) or the call's `CallInterrupted` reason. */
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

/** Starts a subscription deadline of `timeoutMs` inside `call`. */
export function startSubscriptionDeadline(
  clock: Clock,
  call: CallBudget,
  timeoutMs: number,
): SubscriptionDeadline {
  const controller = new AbortController();
  const timer = new AbortController();
  const startedAt = clock.now();
  const ownDeadlineAt = startedAt + timeoutMs;
  // When both fall due together the call's budget wins: interruption overrides policy.
  const ownIsEarlier = ownDeadlineAt < call.deadlineAt;
  const deadlineAt = Math.min(ownDeadlineAt, call.deadlineAt);

  const expire = (): void => {
    if (!controller.signal.aborted) controller.abort(new DeadlineExpired());
    timer.abort();
  };
  const onCall = (): void => {
    if (!controller.signal.aborted) controller.abort(call.signal.reason);
    timer.abort();
  };

  if (call.signal.aborted) onCall();
  else {
    call.signal.addEventListener('abort', onCall, { once: true });
    if (ownIsEarlier) {
      clock.sleep(timeoutMs, timer.signal).then(expire, () => undefined);
    }
  }

  const check = (): StopReason | undefined => {
    if (call.ending() !== undefined) onCall();
    else if (ownIsEarlier && clock.now() >= ownDeadlineAt) expire();
    return stopReasonOf(controller.signal);
  };

  return {
    signal: controller.signal,
    startedAt,
    deadlineAt,
    check,
    dispose() {
      timer.abort();
      call.signal.removeEventListener('abort', onCall);
    },
  };
}
