import { viewOfSignal, type CancelView } from '../cancellation.js';
import type { SendContext } from '../transport.js';

export { ABORTED, raceSignal } from '../cancellation.js';

/**
 * The send context the harness makes for each attempt. A class: an object literal with a getter
 * costs over a microsecond to make (an accessor pair each time), and this runs on every call.
 * `signal` is a getter on the prototype, made on first read; so a wrapper that copies a context
 * must copy `signal` by name (`{ ...ctx, signal: ctx.signal }`). A copy is a plain object, so
 * `cancelOf` hears it through its own `signal`, never through a cancellation it did not pass on.
 */
export class HarnessSendContext implements SendContext {
  readonly cancellation: CancelView;
  readonly onFrame: NonNullable<SendContext['onFrame']>;
  readonly onLateReply: NonNullable<SendContext['onLateReply']>;

  constructor(
    cancellation: CancelView,
    onFrame: NonNullable<SendContext['onFrame']>,
    onLateReply: NonNullable<SendContext['onLateReply']>,
  ) {
    this.cancellation = cancellation;
    this.onFrame = onFrame;
    this.onLateReply = onLateReply;
  }

  get signal(): AbortSignal {
    return this.cancellation.signal;
  }
}

/** The cancellation a transport listens to: the harness's cheap one, or a view of `ctx.signal`. */
export function cancelOf(ctx: SendContext): CancelView {
  return ctx instanceof HarnessSendContext ? ctx.cancellation : viewOfSignal(ctx.signal);
}
