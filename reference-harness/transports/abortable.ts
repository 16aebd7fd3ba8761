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
 * The cancellation a transport listens to: the harness's cheap one when it passed it, otherwise
 * a view of the caller's AbortSignal (other callers of a transport only give `signal`).
 */
export function cancelOf(ctx: SendContext): CancelView {
  return ctx.cancellation ?? viewOfSignal(ctx.signal);
}
