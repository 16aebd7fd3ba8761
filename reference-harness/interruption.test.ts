import { describe, expect, it } from 'vitest';
import { CallInterrupted, DeadlineExpired, stopReasonOf, untilAborted } from './interruption.js';

describe('stopReasonOf', () => {
  it('reads the ending of a call interruption and treats anything else as a deadline', () => {
    const a = new AbortController();
    expect(stopReasonOf(a.signal)).toBeUndefined();
    a.abort(new CallInterrupted('closed'));
    expect(stopReasonOf(a.signal)).toBe('closed');
    const b = new AbortController();
    b.abort(new DeadlineExpired());
    expect(stopReasonOf(b.signal)).toBe('deadline');
    const c = new AbortController();
    c.abort();
    expect(stopReasonOf(c.signal)).toBe('deadline');
  });
});

describe('untilAborted', () => {
  it('returns the value when the work finishes first', async () => {
    const a = new AbortController();
    await expect(untilAborted(Promise.resolve(7), a.signal)).resolves.toEqual({ done: true, value: 7 });
  });

  it('returns at once when the signal aborts, even if the work never settles', async () => {
    const a = new AbortController();
    const raced = untilAborted(new Promise<number>(() => undefined), a.signal);
    a.abort();
    await expect(raced).resolves.toEqual({ done: false });
  });

  it('does not wait for work when the signal is already aborted', async () => {
    const a = new AbortController();
    a.abort();
    let rejectLater!: (e: Error) => void;
    const work = new Promise<number>((_, reject) => (rejectLater = reject));
    await expect(untilAborted(work, a.signal)).resolves.toEqual({ done: false });
    rejectLater(new Error('late failure is swallowed'));
  });

  it('passes through a rejection that happens before the abort', async () => {
    const a = new AbortController();
    await expect(untilAborted(Promise.reject(new Error('boom')), a.signal)).rejects.toThrow('boom');
  });
});
