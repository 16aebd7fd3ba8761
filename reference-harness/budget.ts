import type { Clock } from '../protocol/clock.js';
import { CallInterrupted, type Ending } from './interruption.js';

/**
 * The enclosing budget of one hook call: everything the call does (queue waits, auth, delivery,
 * retries, owned observations) consumes it, and nothing resets or extends it.
 */
export interface CallBudget {
  /** Aborts with a `CallInterrupted` reason on cancellation, budget expiry or shutdown. */
  readonly signal: AbortSignal;
  readonly startedAt: number;
  /** Monotonic time at which the budget expires; `Infinity` without `budgetMs`. */
  readonly deadlineAt: number;
  /** Why the call ended, if it did; also notices an expired budget whose timer has not fired yet. */
  ending(): Ending | undefined;
  /** Milliseconds left (never negative; `Infinity` without a budget). */
  remainingMs(): number;
  /** Stops the budget timer and detaches listeners; the call's signal keeps its state. */
  dispose(): void;
}

export interface CallBudgetOptions {
  clock: Clock;
  budgetMs?: number;
  /** The caller's cancellation signal. */
  signal?: AbortSignal;
  /** The harness's shutdown signal. */
  closeSignal?: AbortSignal;
}

/** Starts a call budget now; an already-aborted signal or a zero budget ends the call at once. */
export function startCallBudget(options: CallBudgetOptions): CallBudget {
  const { clock } = options;
  const controller = new AbortController();
  const timer = new AbortController();
  const startedAt = clock.now();
  const deadlineAt = options.budgetMs === undefined ? Infinity : startedAt + options.budgetMs;
  const end = (ending: Ending): void => {
    if (!controller.signal.aborted) controller.abort(new CallInterrupted(ending));
    timer.abort();
  };
  const onCancel = (): void => end('cancelled');
  const onClose = (): void => end('closed');

  // Shutdown first: a call admitted while closing must report the shutdown, not a cancellation.
  if (options.closeSignal?.aborted) end('closed');
  else if (options.signal?.aborted) end('cancelled');
  else if (deadlineAt <= startedAt) end('budget-expired');
  else {
    options.closeSignal?.addEventListener('abort', onClose, { once: true });
    options.signal?.addEventListener('abort', onCancel, { once: true });
    if (Number.isFinite(deadlineAt)) {
      clock.sleep(deadlineAt - startedAt, timer.signal).then(
        () => end('budget-expired'),
        () => undefined,
      );
    }
  }

  const ending = (): Ending | undefined => {
    if (!controller.signal.aborted && clock.now() >= deadlineAt) end('budget-expired');
    const reason: unknown = controller.signal.reason;
    return reason instanceof CallInterrupted ? reason.ending : undefined;
  };

  return {
    signal: controller.signal,
    startedAt,
    deadlineAt,
    ending,
    remainingMs: () => Math.max(0, deadlineAt - clock.now()),
    dispose() {
      timer.abort();
      options.signal?.removeEventListener('abort', onCancel);
      options.closeSignal?.removeEventListener('abort', onClose);
    },
  };
}
