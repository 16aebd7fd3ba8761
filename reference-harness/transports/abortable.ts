import { asCancelView, viewOfSignal, type CancelView } from '../cancellation.js';
import type { SendContext } from '../transport.js';

/** Marker returned by `raceSignal` when the signal won. */
export const ABORTED: unique symbol = Symbol('aborted');

/**
 * Waits for `promise` unless `cancel` fires first; the promise keeps running either way (its
 * owner decides what to do with a late result). A rejection passes through.
 */
export function raceSignal<T>(
  promise: Promise<T>,
  cancel: AbortSignal | CancelView,
): Promise<T | typeof ABORTED> {
  const view = asCancelView(cancel);
  if (view.aborted) {
    promise.catch(() => undefined);
    return Promise.resolve(ABORTED);
  }
  return new Promise<T | typeof ABORTED>((resolve, reject) => {
    const detach = view.onAbort(() => {
      promise.catch(() => undefined);
      resolve(ABORTED);
    });
    promise.then(
      (value) => {
        detach();
        resolve(value);
      },
      (error: unknown) => {
        detach();
        reject(error);
      },
    );
  });
}

/**
 * The harness's own cancellation behind each send context it made. A WeakMap rather than a field,
 * so that a wrapper that copies a context with another `signal` (`{ ...ctx, signal }`) is heard
 * through its signal, never through a cancellation it did not mean to pass.
 */
const cancellations = new WeakMap<SendContext, CancelView>();

/** Makes `ctx.signal` mirror `cancellation`, lazily, and lets this package's transports skip it. */
export function contextWithCancellation(
  cancellation: CancelView,
  onFrame: NonNullable<SendContext['onFrame']>,
  onLateReply: NonNullable<SendContext['onLateReply']>,
): SendContext {
  const ctx: SendContext = {
    // A getter, so that an AbortSignal is made only for a transport that reads it.
    get signal() {
      return cancellation.signal;
    },
    onFrame,
    onLateReply,
  };
  cancellations.set(ctx, cancellation);
  return ctx;
}

/** The cancellation a transport listens to: the harness's cheap one, or a view of `ctx.signal`. */
export function cancelOf(ctx: SendContext): CancelView {
  return cancellations.get(ctx) ?? viewOfSignal(ctx.signal);
}
