/**
 * A system clock whose sleeps end on time rather than up to a few ms late. Node's timers fire
 * on whole-millisecond loop time, so "delay 20 ms" would land anywhere in 20..22 ms. The mock's
 * whole point is timing as scripted, so its shells sleep with a timer until just before the
 * deadline and then yield turn by turn (setImmediate, so I/O keeps flowing) until it is reached.
 */
import { systemClock, type Clock } from '../../protocol/clock.js';

/**
 * How long before a deadline the timer hands over to turn-by-turn yielding: longer than a timer
 * that wakes an idle process is usually late, since the yielding can only end a sleep on time if
 * it starts before the deadline. The price is up to this much CPU per sleep.
 */
export const PRECISE_LEAD_MS = 5;

/** The system clock with precise sleeps. */
export const preciseClock: Clock = {
  now: () => systemClock.now(),
  wallNow: () => systemClock.wallNow(),
  async sleep(ms, signal) {
    const due = systemClock.now() + Math.max(0, ms);
    if (ms > PRECISE_LEAD_MS) await systemClock.sleep(ms - PRECISE_LEAD_MS, signal);
    while (systemClock.now() < due) {
      if (signal?.aborted) throw signal.reason ?? new Error('sleep aborted');
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    // An abort that came while yielding wins even if the deadline passed meanwhile (a loaded
    // machine can resume the last turn after `due`): a sleep aborted before it resolved rejects.
    if (signal?.aborted) throw signal.reason ?? new Error('sleep aborted');
  },
};
