import { describe, expect, it } from 'vitest';
import { ManualClock, SleepAborted, systemClock } from './clock.js';

/** Settles a promise into a value we can inspect without awaiting it forever. */
function track<T>(p: Promise<T>) {
  const state: { status: 'pending' | 'resolved' | 'rejected'; reason?: unknown } = { status: 'pending' };
  p.then(
    () => (state.status = 'resolved'),
    (reason: unknown) => Object.assign(state, { status: 'rejected', reason }),
  );
  return state;
}

const flush = () => new Promise<void>((r) => setImmediate(r));

describe('systemClock', () => {
  it('sleeps at least the requested time on the monotonic clock', async () => {
    const start = systemClock.now();
    await systemClock.sleep(20);
    // Timers may round down by under a millisecond; never by more.
    expect(systemClock.now() - start).toBeGreaterThanOrEqual(19);
  });

  it('rejects at once for an already-aborted signal, with its reason', async () => {
    const ac = new AbortController();
    ac.abort(new Error('gone'));
    await expect(systemClock.sleep(10, ac.signal)).rejects.toThrow('gone');
  });

  it('rejects when the signal aborts mid-sleep, with the reason it carries', async () => {
    const ac = new AbortController();
    const p = systemClock.sleep(60_000, ac.signal);
    const reason = new SleepAborted();
    ac.abort(reason);
    await expect(p).rejects.toBe(reason);
  });

  it('never lets a huge or infinite sleep overflow into an immediate wake-up', async () => {
    const ac = new AbortController();
    const huge = track(systemClock.sleep(2 ** 31 + 5, ac.signal));
    const forever = track(systemClock.sleep(Infinity, ac.signal));
    // Event-based: a real 30 ms sleep has elapsed, far longer than the 1 ms an overflow gives.
    await systemClock.sleep(30);
    expect(huge.status).toBe('pending');
    expect(forever.status).toBe('pending');
    ac.abort();
    await flush();
    expect(huge.status).toBe('rejected');
    expect(forever.status).toBe('rejected');
  });

  it('treats zero, negative and NaN as an immediate (next-task) wake-up', async () => {
    await systemClock.sleep(0);
    await systemClock.sleep(-5);
    await systemClock.sleep(Number.NaN);
  });

  it('runs scheduled timers no earlier than their due time, and never a cancelled one', async () => {
    const schedule = systemClock.schedule as NonNullable<typeof systemClock.schedule>;
    const fired: Array<[string, number]> = [];
    const due = new Map<string, number>();
    const at = (name: string, ms: number) => {
      due.set(name, systemClock.now() + ms);
      return schedule(ms, () => fired.push([name, systemClock.now()]));
    };
    at('a', 25);
    const b = at('b', 25);
    await systemClock.sleep(5);
    at('c', 25);
    at('d', 5);
    b.cancel();
    b.cancel();
    await systemClock.sleep(60);
    expect(fired.map(([name]) => name)).toEqual(['d', 'a', 'c']);
    // Timers may round down by under a millisecond; never by more.
    for (const [name, when] of fired) expect(when).toBeGreaterThanOrEqual((due.get(name) as number) - 1);
  });

  it('leaves no timer holding the process open once every scheduled timer is cancelled', () => {
    const schedule = systemClock.schedule as NonNullable<typeof systemClock.schedule>;
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const timers = [40_000, 40_000, 41_000].map((ms) => schedule(ms, () => undefined));
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(before + 3);
    for (const t of timers) t.cancel();
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(before);
  });

  it('reports wall time close to Date.now()', () => {
    expect(Math.abs(systemClock.wallNow() - Date.now())).toBeLessThan(1000);
  });
});

describe('ManualClock', () => {
  it('starts where asked and moves only on advance', async () => {
    const clock = new ManualClock(100, 1_000_000);
    expect(clock.now()).toBe(100);
    expect(clock.wallNow()).toBe(1_000_000);
    await clock.advance(50);
    expect(clock.now()).toBe(150);
    expect(clock.wallNow()).toBe(1_000_050);
  });

  it('wakes sleeps in due order, ties in call order, each at its own time', async () => {
    const clock = new ManualClock();
    const woke: Array<[string, number]> = [];
    const sleeper = (name: string, ms: number) => clock.sleep(ms).then(() => woke.push([name, clock.now()]));
    const all = Promise.all([sleeper('c', 30), sleeper('a', 10), sleeper('b', 10), sleeper('d', 100)]);
    await clock.advance(40);
    expect(woke).toEqual([
      ['a', 10],
      ['b', 10],
      ['c', 30],
    ]);
    expect(clock.pendingSleeps).toBe(1);
    await clock.advance(60);
    await all;
    expect(woke.at(-1)).toEqual(['d', 100]);
  });

  it('wakes a sleep scheduled by a woken sleeper within the same advance', async () => {
    const clock = new ManualClock();
    const times: number[] = [];
    void clock.sleep(10).then(async () => {
      times.push(clock.now());
      await clock.sleep(5);
      times.push(clock.now());
    });
    await clock.advance(20);
    expect(times).toEqual([10, 15]);
    expect(clock.now()).toBe(20);
  });

  it('does not wake a sleep before its time', async () => {
    const clock = new ManualClock();
    const s = track(clock.sleep(10));
    await clock.advance(9);
    await flush();
    expect(s.status).toBe('pending');
    await clock.advance(1);
    await flush();
    expect(s.status).toBe('resolved');
  });

  it('removes an aborted sleep and rejects it with the reason', async () => {
    const clock = new ManualClock();
    const ac = new AbortController();
    const s = clock.sleep(10, ac.signal);
    expect(clock.pendingSleeps).toBe(1);
    ac.abort('stop');
    await expect(s).rejects.toBe('stop');
    expect(clock.pendingSleeps).toBe(0);
  });

  it('rejects at once for an already-aborted signal and schedules nothing', async () => {
    const clock = new ManualClock();
    const ac = new AbortController();
    ac.abort();
    await expect(clock.sleep(10, ac.signal)).rejects.toBeInstanceOf(DOMException);
    expect(clock.pendingSleeps).toBe(0);
  });

  it('keeps an infinite sleep pending and treats NaN as zero', async () => {
    const clock = new ManualClock();
    const forever = track(clock.sleep(Infinity));
    const nan = track(clock.sleep(Number.NaN));
    await clock.advance(1e12);
    await flush();
    expect(forever.status).toBe('pending');
    expect(nan.status).toBe('resolved');
  });

  it('advanceTo never moves time backwards', async () => {
    const clock = new ManualClock(50);
    await clock.advanceTo(10);
    expect(clock.now()).toBe(50);
  });
});
