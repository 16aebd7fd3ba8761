import { scheduleOn, type Clock, type Scheduled } from '../protocol/clock.js';
import { asCancelView, Cancellation, viewOfSignal, type CancelView } from './cancellation.js';
import { CallInterrupted, type Ending } from './interruption.js';

/**
 * The enclosing budget of one hook call: everything the call does (queue waits, auth, delivery,
 * retries, owned observations) consumes it, and nothing resets or extends it.
 */
export interface CallBudget {
  /** Cancelled with a `CallInterrupted` reason on cancellation, budget expiry or shutdown. */
  readonly cancellation: CancelView;
  /** The same as `cancellation`, as a standard AbortSignal (made on first use). */
  readonly signal: AbortSignal;
  readonly startedAt: number;
  /** Monotonic time at which the budget expires; `Infinity` without `budgetMs`. */
  readonly deadlineAt: number;
  /** Why the call ended, if it did; also notices an expired budget whose timer has not fired yet. */
  ending(): Ending | undefined;
  /** Milliseconds left (never negative; `Infinity` without a budget). */
  remainingMs(): number;
  /** Stops the budget timer and detaches listeners; the call's cancellation keeps its state. */
  dispose(): void;
}

export interface CallBudgetOptions {
  clock: Clock;
  budgetMs?: number;
  /** The caller's cancellation signal. */
  signal?: AbortSignal;
  /** The harness's shutdown. */
  closeSignal?: AbortSignal | CancelView;
}

/**
 * Starts a call budget now; an already-aborted signal or a zero budget ends the call at once.
 * A call without `budgetMs` arms no timer, and nothing here makes an AbortSignal: this runs on
 * every hook call.
 */
export function startCallBudget(options: CallBudgetOptions): CallBudget {
  return new Budget(options);
}

/** A class rather than closures: this is built on every call, and closures cost allocations. */
class Budget implements CallBudget {
  readonly cancellation = new Cancellation();
  readonly startedAt: number;
  readonly deadlineAt: number;
  readonly #clock: Clock;
  #detachClose: (() => void) | undefined;
  #detachCaller: (() => void) | undefined;
  #timer: Scheduled | undefined;

  constructor(options: CallBudgetOptions) {
    const clock = (this.#clock = options.clock);
    const startedAt = (this.startedAt = clock.now());
    const deadlineAt = (this.deadlineAt =
      options.budgetMs === undefined ? Infinity : startedAt + options.budgetMs);
    const close = options.closeSignal === undefined ? undefined : asCancelView(options.closeSignal);
    const caller = options.signal === undefined ? undefined : viewOfSignal(options.signal);
    // Shutdown first: a call admitted while closing must report the shutdown, not a cancellation.
    if (close?.aborted) this.#end('closed');
    else if (caller?.aborted) this.#end('cancelled');
    else if (deadlineAt <= startedAt) this.#end('budget-expired');
    else {
      if (close) this.#detachClose = close.onAbort(() => this.#end('closed'));
      if (caller) this.#detachCaller = caller.onAbort(() => this.#end('cancelled'));
      if (Number.isFinite(deadlineAt)) {
        this.#timer = scheduleOn(clock, deadlineAt - startedAt, () => this.#end('budget-expired'));
      }
    }
  }

  get signal(): AbortSignal {
    return this.cancellation.signal;
  }

  ending(): Ending | undefined {
    // Without a budget there is no expiry to notice, and no reason to read the clock.
    if (!this.cancellation.aborted && this.deadlineAt !== Infinity && this.#clock.now() >= this.deadlineAt) {
      this.#end('budget-expired');
    }
    const reason: unknown = this.cancellation.reason;
    return reason instanceof CallInterrupted ? reason.ending : undefined;
  }

  remainingMs(): number {
    return Math.max(0, this.deadlineAt - this.#clock.now());
  }

  dispose(): void {
    this.#detachClose?.();
    this.#detachCaller?.();
    this.#timer?.cancel();
    this.#detachClose = this.#detachCaller = this.#timer = undefined;
  }

  #end(ending: Ending): void {
    this.cancellation.abort(new CallInterrupted(ending));
    this.dispose();
  }
}
