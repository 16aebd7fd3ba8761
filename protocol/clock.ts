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

/**
 * The system clock's timers, grouped by duration. A deadline that a fast reply beats is made and
 * cancelled within microseconds on every hook call; a Node timer for each (made, linked into
 * Node's list for its duration, then unlinked, which tears that list down again when it was the
 * only one) cost about 0.45 µs a call, 0.13 µs of it when the list stays. Timers of one duration
 * fall due in the order they were made, so a group is a FIFO list with one Node timer armed for
 * its head; cancelling unlinks in O(1). A group left empty by cancellations keeps its Node timer,
 * unref'd so it never holds the process open, for the next timer of that duration; it is
 * dropped when that timer fires empty, or at once while too many groups sit empty (a clock used
 * with ever-changing durations keeps no trail of idle timers).
 */
class TimerGroup {
  head: SystemScheduled | undefined = undefined;
  tail: SystemScheduled | undefined = undefined;
  timer: ReturnType<typeof setTimeout> | undefined = undefined;
  /** True while the group is in `groups` with no timers (its Node timer unref'd). */
  idle = false;
  /** The `setTimeout` that made `timer`: an idle timer made by a since-replaced one (fake timers) is not reused. */
  armedBy: typeof setTimeout | undefined = undefined;
  readonly ms: number;

  constructor(ms: number) {
    this.ms = ms;
  }
}

/** Empty groups kept with their Node timer: the steady durations (deadlines, budgets) need a few. */
const MAX_IDLE_GROUPS = 8;
const groups = new Map<number, TimerGroup>();
let idleGroups = 0;

function armGroup(group: TimerGroup, now: number): void {
  const head = group.head as SystemScheduled;
  // A due head still waits for the next timer turn (as `setTimeout(fn, 0)` would): never a loop.
  const left = Math.min(Math.max(1, head.due - now), MAX_TIMER_MS);
  group.timer = setTimeout(fireGroup, left, group);
  group.armedBy = setTimeout;
}

/** Takes an empty group out of use, its Node timer stopped. */
function dropGroup(group: TimerGroup): void {
  if (group.timer !== undefined) clearTimeout(group.timer);
  group.timer = undefined;
  if (group.idle) idleGroups--;
  group.idle = false;
  if (groups.get(group.ms) === group) groups.delete(group.ms);
}

/** Runs the group's timers that are due (only those present now), then re-arms or drops it. */
function fireGroup(group: TimerGroup): void {
  group.timer = undefined;
  const now = performance.now();
  const last = group.tail;
  try {
    for (let t = group.head; t !== undefined && t.due <= now; t = group.head) {
      t.unlink();
      t.fn();
      if (t === last) break;
    }
  } finally {
    if (group.head === undefined) dropGroup(group);
    else if (group.timer === undefined) armGroup(group, performance.now());
  }
}

/** One timer of the system clock: due at a monotonic time, linked into its duration's group. */
class SystemScheduled implements Scheduled {
  readonly due: number;
  readonly fn: () => void;
  group: TimerGroup | undefined;
  prev: SystemScheduled | undefined = undefined;
  next: SystemScheduled | undefined = undefined;

  constructor(ms: number, fn: () => void) {
    // NaN counts as 0; Infinity never fires (its group re-arms in timer-sized steps until cancelled).
    const delay = Number.isNaN(ms) ? 0 : Math.max(0, ms);
    const now = performance.now();
    this.due = now + delay;
    this.fn = fn;
    let group = groups.get(delay);
    if (group?.idle && group.armedBy !== setTimeout) {
      dropGroup(group);
      group = undefined;
    }
    if (group === undefined) groups.set(delay, (group = new TimerGroup(delay)));
    this.group = group;
    const tail = group.tail;
    if (tail !== undefined) {
      tail.next = this;
      this.prev = tail;
      group.tail = this;
      return;
    }
    group.head = group.tail = this;
    if (group.idle) {
      // Back in use: its timer holds the process open again (it may fire early: it re-arms).
      group.idle = false;
      idleGroups--;
      group.timer?.ref();
    }
    if (group.timer === undefined) armGroup(group, now);
  }

  cancel(): void {
    const group = this.group;
    if (group === undefined) return;
    this.unlink();
    if (group.head !== undefined || group.timer === undefined) return;
    // Now empty: its timer waits unref'd for the next one of this duration, unless too many idle.
    group.idle = true;
    idleGroups++;
    if (idleGroups > MAX_IDLE_GROUPS) dropGroup(group);
    else group.timer.unref();
  }

  /** Leaves the group's list; a second call does nothing. */
  unlink(): void {
    const group = this.group;
    if (group === undefined) return;
    const { prev, next } = this;
    if (prev === undefined) group.head = next;
    else prev.next = next;
    if (next === undefined) group.tail = prev;
    else next.prev = prev;
    this.prev = this.next = this.group = undefined;
  }
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
