import { describe, expect, it } from 'vitest';
import { ABORTED, raceSignal } from './cancellation.js';

describe('raceSignal', () => {
  it('passes a value through when the signal stays quiet', async () => {
    expect(await raceSignal(Promise.resolve(7), new AbortController().signal)).toBe(7);
  });

  it('passes a rejection through', async () => {
    await expect(raceSignal(Promise.reject(new Error('no')), new AbortController().signal)).rejects.toThrow(
      'no',
    );
  });

  it('returns ABORTED as soon as the signal aborts, even if the promise never settles', async () => {
    const c = new AbortController();
    const pending = raceSignal(new Promise<number>(() => undefined), c.signal);
    c.abort();
    expect(await pending).toBe(ABORTED);
  });

  it('returns ABORTED for an already aborted signal and swallows a later rejection', async () => {
    const c = new AbortController();
    c.abort();
    let rejectLater!: (e: Error) => void;
    const p = new Promise<number>((_, r) => (rejectLater = r));
    expect(await raceSignal(p, c.signal)).toBe(ABORTED);
    rejectLater(new Error('late'));
    await new Promise<void>((r) => setImmediate(r));
  });
});
