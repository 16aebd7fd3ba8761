import { scheduleOn, type Clock, type Scheduled } from '../protocol/clock.js';
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
  return new Deadline(clock, call, timeoutMs);
}

/** A class rather than closures: one is built per delivery, on the hot path. */
class Deadline implements SubscriptionDeadline {
  readonly cancellation = new Cancellation();
  readonly startedAt: number;
  readonly deadlineAt: number;
  readonly #clock: Clock;
  readonly #call: CallBudget;
  readonly #ownDeadlineAt: number;
  /** True when the own timeout ends this delivery before the call's budget does. */
  readonly #ownIsEarlier: boolean;
  #timer: Scheduled | undefined;
  #detachCall: (() => void) | undefined;

  constructor(clock: Clock, call: CallBudget, timeoutMs: number) {
    this.#clock = clock;
    this.#call = call;
    this.startedAt = clock.now();
    this.#ownDeadlineAt = this.startedAt + timeoutMs;
    // When both fall due together the call's budget wins: interruption overrides policy.
    this.#ownIsEarlier = this.#ownDeadlineAt < call.deadlineAt;
    this.deadlineAt = Math.min(this.#ownDeadlineAt, call.deadlineAt);
    if (call.cancellation.aborted) this.#onCall();
    else {
      this.#detachCall = call.cancellation.onAbort(() => this.#onCall());
      if (this.#ownIsEarlier) this.#timer = scheduleOn(clock, timeoutMs, () => this.#expire());
    }
  }

  get signal(): AbortSignal {
    return this.cancellation.signal;
  }

  check(): StopReason | undefined {
    if (this.#call.ending() !== undefined) this.#onCall();
    else if (this.#ownIsEarlier && this.#clock.now() >= this.#ownDeadlineAt) this.#expire();
    return stopReasonOf(this.cancellation);
  }

  dispose(): void {
    this.#timer?.cancel();
    this.#detachCall?.();
    this.#timer = this.#detachCall = undefined;
  }

  #expire(): void {
    this.cancellation.abort(EXPIRED);
    this.dispose();
  }

  #onCall(): void {
    this.cancellation.abort(this.#call.cancellation.reason);
    this.dispose();
  }
}
