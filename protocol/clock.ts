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
   * reply beats): calls `fn` after `ms` unless cancelled first. Callers fall back to `sleep` when
   * a clock lacks it (see `scheduleOn`).
   */
  schedule?(ms: number, fn: () => void): Scheduled;
}

/** The wall-clock time of an earlier instant `monotonic` of `clock`. */
export function wallAt(clock: Clock, monotonic: number): number {
  return clock.wallNow() - (clock.now() - monotonic);
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

/** A pending `schedule` call. */
export interface Scheduled {
  /** Stops it; nothing happens if it already ran or was cancelled. */
  cancel(): void;
}

/** Why `scheduleOn`'s fallback sleep was stopped; one shared value, since nobody reads it. */
const SCHEDULE_CANCELLED = new SleepAborted();

/** A fallback for clocks without `schedule`: a sleep with its own AbortController. */
class SleepScheduled implements Scheduled {
  readonly #stop = new AbortController();

  constructor(clock: Clock, ms: number, fn: () => void) {
    clock.sleep(ms, this.#stop.signal).then(fn, () => undefined);
  }

  cancel(): void {
    this.#stop.abort(SCHEDULE_CANCELLED);
  }
}

/** Calls `fn` after `ms` on `clock` unless cancelled first. */
export function scheduleOn(clock: Clock, ms: number, fn: () => void): Scheduled {
  return clock.schedule ? clock.schedule(ms, fn) : new SleepScheduled(clock, ms, fn);
}

/** The system clock's timer: re-armed in timer-sized steps, since Node timers overflow at 2^31 ms. */
class SystemScheduled implements Scheduled {
  readonly #due: number;
  readonly #fn: () => void;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(ms: number, fn: () => void) {
    // NaN counts as 0; Infinity never fires (it re-arms in timer-sized steps until cancelled).
    this.#due = performance.now() + (Number.isNaN(ms) ? 0 : Math.max(0, ms));
    this.#fn = fn;
    if (ms > 0) this.#arm();
    else this.#timer = setTimeout(fireScheduled, 0, this);
  }

  cancel(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Called by the timer: runs `fn` when due, otherwise waits for the rest. */
  fire(): void {
    this.#timer = undefined;
    this.#arm();
  }

  #arm(): void {
    const left = this.#due - performance.now();
    if (left <= 0) this.#fn();
    else this.#timer = setTimeout(fireScheduled, Math.min(left, MAX_TIMER_MS), this);
  }
}

function fireScheduled(scheduled: SystemScheduled): void {
  scheduled.fire();
}

/** The real clock: `performance.now()` and timers. */
export const systemClock: Clock = {
  now: () => performance.now(),
  wallNow: () => Date.now(),
  schedule: (ms, fn) => new SystemScheduled(ms, fn),

  sleep(ms, signal) {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortReason(signal));
        return;
      }
      // Infinity never elapses: without a signal nothing can end it, so it holds no timer.
      if (ms === Infinity && !signal) return;
      const onAbort = () => {
        timer.cancel();
        reject(abortReason(signal as AbortSignal));
      };
      const timer = new SystemScheduled(ms, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      signal?.addEventListener('abort', onAbort, { once: true });
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
