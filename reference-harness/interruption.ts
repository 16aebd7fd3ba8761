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
