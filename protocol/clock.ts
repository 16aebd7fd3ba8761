/**
 * The one time source for deadlines, retries, delays and latency. Injected everywhere so
 * tests can drive time; the system clock is the default in production.
 */
export interface Clock {
  /** Monotonic milliseconds (fractional allowed); only differences are meaningful. */
  now(): number;
  /** Wall-clock milliseconds since the epoch, for records read by people. */
  wallNow(): number;
  /** Resolves after `ms`; rejects with the signal's reason as soon as the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Optional, cheaper than `sleep` for a timer that is usually cancelled (a deadline that a fast
   * reply beats): calls `fn` after `ms` unless the returned function was called first. Callers
   * fall back to `sleep` when a clock lacks it (see `scheduleOn`).
   */
  schedule?(ms: number, fn: () => void): () => void;
}

/** Reason used when a sleep is aborted by a signal that carries no reason of its own. */
export class SleepAborted extends Error {
  constructor() {
    super('sleep aborted');
    this.name = 'SleepAborted';
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new SleepAborted();
}

/** Longest delay one Node timer can hold; longer ones would silently fire after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Why `scheduleOn`'s fallback sleep was stopped; one shared value, since nobody reads it. */
const SCHEDULE_CANCELLED = new SleepAborted();

/** Calls `fn` after `ms` on `clock` unless the returned function is called first. */
export function scheduleOn(clock: Clock, ms: number, fn: () => void): () => void {
  if (clock.schedule) return clock.schedule(ms, fn);
  const stop = new AbortController();
  clock.sleep(ms, stop.signal).then(fn, () => undefined);
  return () => stop.abort(SCHEDULE_CANCELLED);
}

/** The real clock: `performance.now()` and timers. */
export const systemClock: Clock = {
  now: () => performance.now(),
  wallNow: () => Date.now(),
  schedule(ms, fn) {
    // NaN counts as 0; Infinity never fires. Long delays re-arm in timer-sized steps.
    const due = performance.now() + (Number.isNaN(ms) ? 0 : Math.max(0, ms));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      const left = due - performance.now();
      if (left <= 0) {
        timer = undefined;
        fn();
        return;
      }
      if (left !== Infinity) timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
    };
    if (!(ms > 0)) timer = setTimeout(arm, 0);
    else arm();
    return () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    };
  },
  sleep(ms, signal) {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortReason(signal));
        return;
      }
      // NaN is treated as 0; Infinity never elapses (only the signal ends it).
      const due = performance.now() + (Number.isNaN(ms) ? 0 : Math.max(0, ms));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortReason(signal as AbortSignal));
      };
      // Long sleeps are re-armed in timer-sized steps instead of overflowing to 1 ms.
      const arm = () => {
        const left = due - performance.now();
        if (left <= 0) {
          signal?.removeEventListener('abort', onAbort);
          resolve();
          return;
        }
        if (left === Infinity && !signal) return;
        timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (ms <= 0 || Number.isNaN(ms)) {
        timer = setTimeout(arm, 0);
        return;
      }
      arm();
    });
  },
};

interface PendingSleep {
  at: number;
  seq: number;
  resolve: () => void;
}

/**
 * A manual clock for tests: time moves only through `advance`/`advanceTo`, and sleeps whose
 * time has come resolve in order of their due time.
 */
export class ManualClock implements Clock {
  private current: number;
  private wallOffset: number;
  private pending: PendingSleep[] = [];
  private seq = 0;

  constructor(start = 0, wallStart = 1_767_225_600_000) {
    this.current = start;
    this.wallOffset = wallStart - start;
  }

  now(): number {
    return this.current;
  }

  wallNow(): number {
    return this.current + this.wallOffset;
  }

  /** Number of sleeps not yet due. */
  get pendingSleeps(): number {
    return this.pending.length;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortReason(signal));
        return;
      }
      // NaN is treated as 0, as in systemClock; Infinity stays pending until aborted.
      const entry: PendingSleep = {
        at: this.current + (Number.isNaN(ms) ? 0 : Math.max(0, ms)),
        seq: this.seq++,
        resolve,
      };
      const onAbort = () => {
        this.pending = this.pending.filter((p) => p !== entry);
        reject(abortReason(signal as AbortSignal));
      };
      entry.resolve = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      this.pending.push(entry);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Moves time forward by `ms`, resolving every sleep that falls due, earliest first. */
  async advance(ms: number): Promise<void> {
    await this.advanceTo(this.current + ms);
  }

  async advanceTo(target: number): Promise<void> {
    for (;;) {
      const due = this.pending.filter((p) => p.at <= target).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.pending = this.pending.filter((p) => p !== due);
      this.current = Math.max(this.current, due.at);
      due.resolve();
      // Let the woken code run before the next sleep falls due.
      await new Promise<void>((r) => setImmediate(r));
    }
    this.current = Math.max(this.current, target);
  }
}
