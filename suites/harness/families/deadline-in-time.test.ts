import { describe, expect, it } from 'vitest';
import { deriveExpectation } from '../kit/expectation.js';
import { caseTimeoutMs } from '../kit/run-case.js';
import { HARNESS_TRANSPORTS } from '../kit/timing.js';
import {
  CLIENT_DEFAULT_TIMEOUTS_MS,
  IN_TIME_MARGIN_MS,
  inTimeCases,
  inTimeDeadlineMs,
  MAX_SUPPORTED_TIMEOUT_MS,
} from './deadline-in-time.js';

const margins = {} as Parameters<typeof caseTimeoutMs>[1]['margins'];

describe('the late-but-in-time cases', () => {
  it('hold each reply past a client default, inside a timeoutMs the harness should support', () => {
    for (const transport of HARNESS_TRANSPORTS) {
      const cases = inTimeCases(transport);
      expect(cases.map((c) => c.transport)).toEqual(CLIENT_DEFAULT_TIMEOUTS_MS.map(() => transport));
      cases.forEach((c, i) => {
        const held = c.behaviour.kind === 'delay' ? c.behaviour.ms : 0;
        const timeoutMs = caseTimeoutMs(c, { margins });
        expect(held).toBeGreaterThan(CLIENT_DEFAULT_TIMEOUTS_MS[i] as number);
        expect(timeoutMs).toBeGreaterThan(held);
        expect(timeoutMs).toBeLessThanOrEqual(MAX_SUPPORTED_TIMEOUT_MS);
      });
    }
  });

  it('scale the room after the reply, never the hold, and stop at 30,000 ms', () => {
    expect(inTimeDeadlineMs(6000, IN_TIME_MARGIN_MS)).toBe(12_000);
    expect(inTimeDeadlineMs(11_000, IN_TIME_MARGIN_MS * 4.7)).toBe(MAX_SUPPORTED_TIMEOUT_MS);
  });

  it('expect the reply applied, in a way the decision shows, under each policy', () => {
    const cases = inTimeCases('http');
    expect(new Set(cases.map((c) => c.policy))).toEqual(new Set(['fail-open', 'fail-closed']));
    for (const c of cases) {
      const expected = deriveExpectation(c, c, caseTimeoutMs(c, { margins }));
      expect(expected.rule).toBe('deadline.full-length');
      expect(expected.synthetic).toBe(false);
      // Giving up continues under fail-open and denies under fail-closed: the reply does the other.
      expect(expected.decision).toBe(c.policy === 'fail-open' ? 'deny' : 'continue');
    }
  });
});
