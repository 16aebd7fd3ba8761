/**
 * Cancellation for the hot path of a hook call. Every call has a budget and a deadline per
 * subscription, and both used to be AbortControllers: on Node 20 making an AbortSignal and
 * aborting it (which builds a DOMException with a stack when no reason is given) cost more than
 * the whole round trip to a fast backend. These are plain objects with a listener list; a real
 * AbortSignal is made only when something outside asks for one (an injected transport, a token
 * provider, `clock.sleep`).
 */

/** A read-only view of a cancellation: what transports and waits listen to. */
export interface CancelView {
  readonly aborted: boolean;
  /** Why it was cancelled; `undefined` while not cancelled. */
  readonly reason: unknown;
  /**
   * Calls `fn` once when cancelled and returns a function that detaches it. Like an AbortSignal
   * listener, `fn` is never called if the view is already cancelled: check `aborted` first.
   */
  onAbort(fn: () => void): () => void;
  /** A standard AbortSignal that mirrors this view, made on first use. */
  readonly signal: AbortSignal;
}

const detached = (): void => undefined;

/** An owned cancellation: `abort(reason)` once, listeners run synchronously in order. */
export class Cancellation implements CancelView {
  #aborted = false;
  #reason: unknown = undefined;
  #listeners: Array<() => void> | undefined;
  #controller: AbortController | undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  /** Cancels with `reason` (always give one: it is what every waiter reports); later calls do nothing. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners) for (const fn of listeners) fn();
    this.#controller?.abort(reason);
  }

  onAbort(fn: () => void): () => void {
    if (this.#aborted) return detached;
    (this.#listeners ??= []).push(fn);
    return () => {
      const listeners = this.#listeners;
      if (!listeners) return;
      const at = listeners.indexOf(fn);
      if (at !== -1) listeners.splice(at, 1);
    };
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }
}

/** A view of a foreign AbortSignal (a caller's, or a test's), for code written against views. */
export function viewOfSignal(signal: AbortSignal): CancelView {
  return {
    get aborted() {
      return signal.aborted;
    },
    get reason(): unknown {
      return signal.aborted ? signal.reason : undefined;
    },
    onAbort(fn) {
      if (signal.aborted) return detached;
      signal.addEventListener('abort', fn, { once: true });
      return () => signal.removeEventListener('abort', fn);
    },
    signal,
  };
}

/** Either kind, as a view: lets helpers take the harness's own cancellations and callers' signals alike. */
export function asCancelView(source: AbortSignal | CancelView): CancelView {
  return 'onAbort' in source ? source : viewOfSignal(source);
}

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
