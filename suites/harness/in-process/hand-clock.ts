/**
 * A clock the in-process timing cases move by hand, so no case waits real time. Its timers
 * (`schedule`, what a harness arms for deadlines and budgets) and its sleeps (what a harness
 * waits on between retries) are kept apart: `advance` fires both as time passes, `lag` moves time
 * and wakes the sleeps that fall due while the timers stay unfired. That is a busy event loop, where
 * the clock reads past a deadline before the deadline's timer callback has run: a harness must
 * still see the deadline when it rechecks the clock.
 */
import type { Clock, Scheduled } from '../../../protocol/clock.js';

interface Pending {
  at: number;
  fire: () => void;
  kind: 'timer' | 'sleep';
}

export class HandClock implements Clock {
  #now: number;
  #pending: Pending[] = [];

  /** `start` is where monotonic time begins: not 0, so a harness measuring from 0 is seen. */
  constructor(start = 1_000_000) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  wallNow(): number {
    return 1_767_225_600_000 + this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const entry: Pending = { at: this.#now + Math.max(0, ms), kind: 'sleep', fire: () => resolve() };
      signal?.addEventListener(
        'abort',
        () => {
          this.#drop(entry);
          reject(signal.reason as Error);
        },
        { once: true },
      );
      this.#pending.push(entry);
    });
  }

  schedule(ms: number, fn: () => void): Scheduled {
    const entry: Pending = { at: this.#now + Math.max(0, ms), kind: 'timer', fire: fn };
    this.#pending.push(entry);
    return { cancel: () => this.#drop(entry) };
  }

  /** Moves time on by `ms`, firing every timer and sleep that falls due, earliest first. */
  async advance(ms: number): Promise<void> {
    await this.#moveTo(this.#now + ms, ['timer', 'sleep'], false);
  }

  /**
   * Moves time on by `ms` at once and only then wakes the sleeps that fell due (they wake late,
   * reading the new time); the timers lag behind and do not fire.
   */
  async lag(ms: number): Promise<void> {
    await this.#moveTo(this.#now + ms, ['sleep'], true);
  }

  /** Number of sleeps (not timers) waiting: a harness in a retry backoff has one. */
  get sleeping(): number {
    return this.#pending.filter((p) => p.kind === 'sleep').length;
  }

  async #moveTo(target: number, kinds: Pending['kind'][], late: boolean): Promise<void> {
    if (late) this.#now = target;
    for (;;) {
      const due = this.#pending
        .filter((p) => p.at <= target && kinds.includes(p.kind))
        .sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.#drop(due);
      this.#now = Math.max(this.#now, due.at);
      due.fire();
      await settle();
    }
    this.#now = target;
    await settle();
  }

  #drop(entry: Pending): void {
    this.#pending = this.#pending.filter((p) => p !== entry);
  }
}

/** Lets pending promise callbacks run (a few macrotask turns). */
export async function settle(rounds = 3): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
