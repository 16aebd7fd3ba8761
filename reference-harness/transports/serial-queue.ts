import { asCancelView, type CancelView } from '../cancellation.js';

/**
 * A lock that admits one holder at a time, in arrival order. A waiter whose signal aborts
 * leaves the line at once, so a slow request never holds callers past their own deadline.
 */
export class SerialQueue {
  private busy = false;
  private waiters: Array<{ admit: (release: () => void) => void; cancel: () => void }> = [];
  private closed = false;

  /** Takes the lock at once when it is free (the usual case: no promise, no wait); undefined otherwise. */
  tryAcquire(): (() => void) | undefined {
    if (this.closed || this.busy) return undefined;
    this.busy = true;
    return this.releaser();
  }

  /** Resolves with a release function, or undefined if `signal` aborted or the queue closed first. */
  acquire(cancel: AbortSignal | CancelView): Promise<(() => void) | undefined> {
    if (this.closed || cancel.aborted) return Promise.resolve(undefined);
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve) => {
      const waiter = {
        admit: (release: () => void) => {
          detach();
          resolve(release);
        },
        cancel: () => {
          detach();
          resolve(undefined);
        },
      };
      this.waiters.push(waiter);
      const detach = asCancelView(cancel).onAbort(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(undefined);
      });
    });
  }

  /** Turns away every waiter and every later caller. */
  close(): void {
    this.closed = true;
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w.cancel();
  }

  /** Number of callers waiting for the lock. */
  get waiting(): number {
    return this.waiters.length;
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next) next.admit(this.releaser());
      else this.busy = false;
    };
  }
}
