import { describe, expect, it } from 'vitest';
import type { DriverAuditEntry, InvokeResult } from '../../driver/index.js';
import { CASE_BACKEND_ID, OBSERVER_BACKEND_ID } from '../kit/registration.js';
import { ownedRaceLost } from './owned-observation-cases.js';

const ENDS = 500;
const SLACK = 100;
const timing = (elapsedMs: number) => ({ elapsedMs, endsAfterMs: ENDS, slackMs: SLACK });

function answer(
  interrupted: boolean,
  intercept: DriverAuditEntry['outcome'],
  observer?: DriverAuditEntry['outcome'],
): InvokeResult {
  return {
    decision: interrupted ? 'deny' : 'continue',
    synthetic: interrupted,
    interrupted,
    audit: [
      { backendId: CASE_BACKEND_ID, outcome: intercept, mode: 'intercept', policy: 'fail-open' },
      ...(observer === undefined
        ? []
        : [{ backendId: OBSERVER_BACKEND_ID, outcome: observer, mode: 'observe' as const }]),
    ],
  };
}

const lost = (result: InvokeResult, elapsedMs: number) =>
  ownedRaceLost('budget expiry', result, CASE_BACKEND_ID, timing(elapsedMs));

describe('ownedRaceLost (AHPX-BUD-004, AHPX-INT-001)', () => {
  it('judges a call interrupted during its observation, and one that answers as its chain settled', () => {
    expect(lost(answer(true, 'no-effect', 'budget-expired'), 505)).toBeUndefined();
    // The defect: the observation was cut short by the ending, the answer says otherwise.
    expect(lost(answer(false, 'no-effect', 'budget-expired'), 505)).toBeUndefined();
    // An observation that ran well past the ending cannot have ended before it.
    expect(lost(answer(false, 'no-effect', 'operational-failure'), 1010)).toBeUndefined();
  });

  it('leaves untested a harness whose own bound ended the observation before the ending', () => {
    expect(lost(answer(false, 'no-effect', 'operational-failure'), 300)).toMatch(/on its own/);
    expect(lost(answer(false, 'no-effect', 'no-effect'), ENDS + SLACK - 1)).toMatch(/shorter than/);
    // A driver that reports no observer entry is read by the clock alone.
    expect(lost(answer(false, 'no-effect'), 300)).toMatch(/on its own/);
    expect(lost(answer(false, 'no-effect'), ENDS + SLACK)).toBeUndefined();
  });

  it('leaves untested a call that the ending cut inside its chain', () => {
    expect(lost(answer(true, 'budget-expired', 'skipped'), 505)).toMatch(/ended in its chain/);
    expect(lost(answer(true, 'interrupted'), 505)).toMatch(/ended in its chain/);
  });
});
