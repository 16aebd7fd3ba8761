import { ABORTED, raceSignal, type CancelView } from './cancellation.js';

/** Why a hook call stopped before it settled: explicit cancellation, budget expiry, or shutdown. */
export type Ending = 'cancelled' | 'budget-expired' | 'closed';

/** Abort reason of a call whose enclosing scope ended; subscription signals inherit it. */
export class CallInterrupted extends Error {
  readonly ending: Ending;

  constructor(ending: Ending) {
    super(`hook call ended: ${ending}`);
    this.name = 'CallInterrupted';
    this.ending = ending;
  }
}

/** Abort reason of one subscription whose own deadline (or observer bound) expired first. */
export class DeadlineExpired extends Error {
  constructor() {
    super('subscription deadline expired');
    this.name = 'DeadlineExpired';
  }
}

/** What stopped a piece of work: its own deadline, or the call ending. */
export type StopReason = 'deadline' | Ending;

/** Reads why a signal aborted; any foreign reason counts as a deadline, the conservative choice. */
export function stopReasonOf(signal: {
  readonly aborted: boolean;
  readonly reason: unknown;
}): StopReason | undefined {
  if (!signal.aborted) return undefined;
  const reason: unknown = signal.reason;
  return reason instanceof CallInterrupted ? reason.ending : 'deadline';
}

export type Raced<T> = { done: true; value: T } | { done: false };

/**
 * Waits for `work` unless `signal` aborts first. The core never trusts a transport to honour
 * abort promptly: interruption must end pending requests at once, whatever the transport does.
 * A rejection of `work` before the abort is passed through.
 */
export function untilAborted<T>(work: Promise<T>, cancel: AbortSignal | CancelView): Promise<Raced<T>> {
  return raceSignal(work, cancel).then((value) => (value === ABORTED ? NOT_DONE : { done: true, value }));
}

const NOT_DONE: Raced<never> = Object.freeze({ done: false });
