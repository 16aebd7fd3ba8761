import { scheduleOn, type Clock } from '../protocol/clock.js';
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
  const { clock } = options;
  const cancellation = new Cancellation();
  const startedAt = clock.now();
  const deadlineAt = options.budgetMs === undefined ? Infinity : startedAt + options.budgetMs;
  let detach: Array<() => void> = [];
  const release = (): void => {
    const fns = detach;
    detach = [];
    for (const fn of fns) fn();
  };
  const end = (ending: Ending): void => {
    cancellation.abort(new CallInterrupted(ending));
    release();
  };
  const close = options.closeSignal === undefined ? undefined : asCancelView(options.closeSignal);
  const caller = options.signal === undefined ? undefined : viewOfSignal(options.signal);

  // Shutdown first: a call admitted while closing must report the shutdown, not a cancellation.
  if (close?.aborted) end('closed');
  else if (caller?.aborted) end('cancelled');
  else if (deadlineAt <= startedAt) end('budget-expired');
  else {
    if (close) detach.push(close.onAbort(() => end('closed')));
    if (caller) detach.push(caller.onAbort(() => end('cancelled')));
    if (Number.isFinite(deadlineAt)) {
      detach.push(scheduleOn(clock, deadlineAt - startedAt, () => end('budget-expired')));
    }
  }

  const ending = (): Ending | undefined => {
    if (!cancellation.aborted && clock.now() >= deadlineAt) end('budget-expired');
    const reason: unknown = cancellation.reason;
    return reason instanceof CallInterrupted ? reason.ending : undefined;
  };

  return {
    cancellation,
    get signal() {
      return cancellation.signal;
    },
    startedAt,
    deadlineAt,
    ending,
    remainingMs: () => Math.max(0, deadlineAt - clock.now()),
    dispose: release,
  };
}
