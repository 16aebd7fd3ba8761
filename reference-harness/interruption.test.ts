import { describe, expect, it } from 'vitest';
import { CallInterrupted, DeadlineExpired, stopReasonOf } from './interruption.js';

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
