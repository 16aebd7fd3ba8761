import type { Clock, ManualClock } from '../protocol/clock.js';

/**
 * Test clock whose time is set by hand and whose timers never fire on their own: models a busy
 * event loop where a reply is read after the deadline but before the deadline's timer callback.
 */
export class LaggingClock implements Clock {
  time = 0;
  now(): number {
    return this.time;
  }
  wallNow(): number {
    return 1_767_225_600_000 + this.time;
  }
  sleep(_ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((_, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  }
}

/** Lets every pending promise callback run (microtasks drain before a macrotask). */
export async function flush(rounds = 3): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r));
}

/**
 * Advances a ManualClock by `ms` one millisecond at a time, letting woken code run and register
 * its next sleep before time moves on: the way real time passes for code under test.
 */
export async function advanceBy(clock: ManualClock, ms: number): Promise<void> {
  await flush();
  await clock.advance(0);
  await flush();
  for (let i = 0; i < ms; i++) {
    await clock.advance(1);
    await flush(1);
  }
  await flush();
}
