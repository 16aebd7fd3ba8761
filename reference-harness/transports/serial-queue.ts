/**
 * A lock that admits one holder at a time, in arrival order. A waiter whose signal aborts
 * leaves the line at once, so a slow request never holds callers past their own deadline.
 */
export class SerialQueue {
  private busy = false;
  private waiters: Array<{ admit: (release: () => void) => void; cancel: () => void }> = [];
  private closed = false;

  /** Resolves with a release function, or undefined if `signal` aborted or the queue closed first. */
  acquire(signal: AbortSignal): Promise<(() => void) | undefined> {
    if (this.closed || signal.aborted) return Promise.resolve(undefined);
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve) => {
      const onAbort = () => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(undefined);
      };
      const waiter = {
        admit: (release: () => void) => {
          signal.removeEventListener('abort', onAbort);
          resolve(release);
        },
        cancel: () => {
          signal.removeEventListener('abort', onAbort);
          resolve(undefined);
        },
      };
      this.waiters.push(waiter);
      signal.addEventListener('abort', onAbort, { once: true });
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
