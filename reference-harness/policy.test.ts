import { describe, expect, it } from 'vitest';
import { applyFailurePolicy } from './policy.js';
import { SYNTHETIC_DENIAL_REASON, interruptedReason } from './synthetic-denial.js';

describe('applyFailurePolicy', () => {
  it('continues unchanged under fail-open and denies under fail-closed', () => {
    expect(applyFailurePolicy('fail-open')).toEqual({ kind: 'continue-unchanged' });
    expect(applyFailurePolicy('fail-closed')).toEqual({ kind: 'synthetic-deny' });
  });
});

describe('local denial reasons', () => {
  it('are generic sentences that name no transport detail', () => {
    const reasons = [
      SYNTHETIC_DENIAL_REASON,
      interruptedReason('cancelled'),
      interruptedReason('budget-expired'),
      interruptedReason('closed'),
    ];
    expect(new Set(reasons).size).toBe(4);
    for (const r of reasons) {
      expect(r).toMatch(/^[A-Z][a-z ]+[a-z]\.$/);
      expect(r).not.toMatch(/http|stdio|127\.|localhost|token|error|stack|:\d/i);
    }
  });
});
