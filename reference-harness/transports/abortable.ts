import { viewOfSignal, type CancelView } from '../cancellation.js';
import type { TranscriptRecorder } from '../transcript.js';
import type { SendContext } from '../transport.js';

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
  readonly #transcript: TranscriptRecorder;
  readonly #backendId: string;
  readonly #attempt: number;

  constructor(
    cancellation: CancelView,
    transcript: TranscriptRecorder,
    backendId: string,
    attempt: number,
    onLateReply: NonNullable<SendContext['onLateReply']>,
  ) {
    this.cancellation = cancellation;
    this.onFrame = transcript.onFrameFor(backendId, attempt);
    this.onLateReply = onLateReply;
    this.#transcript = transcript;
    this.#backendId = backendId;
    this.#attempt = attempt;
  }

  get signal(): AbortSignal {
    return this.cancellation.signal;
  }

  /**
   * Records a frame a transport has only as text, in place of `onFrame` (the transcript keeps
   * text; this spares encoding bytes nobody reads). Only on the harness's own contexts, so a
   * transport calls it after an `instanceof` check and falls back to `onFrame` otherwise.
   */
  recordText(direction: 'out' | 'in', text: string): void {
    this.#transcript.recordText(this.#backendId, direction, text, this.#attempt);
  }
}

/** The cancellation a transport listens to: the harness's cheap one, or a view of `ctx.signal`. */
export function cancelOf(ctx: SendContext): CancelView {
  return ctx instanceof HarnessSendContext ? ctx.cancellation : viewOfSignal(ctx.signal);
}
