import { describe, expect, it } from 'vitest';
import { preciseClock, PRECISE_LEAD_MS } from './precise-clock.js';

describe('preciseClock', () => {
  it('never wakes before the deadline, whether the sleep is longer or shorter than the lead', async () => {
    for (const ms of [PRECISE_LEAD_MS * 5, PRECISE_LEAD_MS / 2, 0]) {
      const start = preciseClock.now();
      await preciseClock.sleep(ms);
      expect(preciseClock.now() - start).toBeGreaterThanOrEqual(ms);
    }
  });

  it('rejects with the signal reason when aborted during the timer or the final yielding', async () => {
    const early = new AbortController();
    const long = preciseClock.sleep(10_000, early.signal);
    early.abort(new Error('cancelled early'));
    await expect(long).rejects.toThrow('cancelled early');

    const late = new AbortController();
    const short = preciseClock.sleep(PRECISE_LEAD_MS / 2, late.signal);
    late.abort(new Error('cancelled late'));
    await expect(short).rejects.toThrow('cancelled late');
  });
});
