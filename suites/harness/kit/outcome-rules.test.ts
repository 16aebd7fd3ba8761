import { describe, expect, it } from 'vitest';
import type { InvokeResult } from '../../driver/index.js';
import type { Expected } from './case-model.js';
import { outcomeRule } from './outcome-rules.js';

const ID = 'dev.ahp-conformance.mock';
/** A retry case's expectation: slow failures until the deadline, under fail-closed. */
const retriesUntilDeadline: Expected = {
  configure: 'accepted',
  decision: 'deny',
  synthetic: true,
  interrupted: false,
  wire: 'any',
  audit: {
    outcome: 'operational-failure',
    classes: ['deadline-exceeded'],
    policy: 'fail-closed',
    synthetic: true,
  },
  because: 'slow failures are retried until the original deadline ends the sequence',
  rule: 'retry.inside-the-deadline',
  deliveryRule: 'delivery.request-sent',
};

function answer(decision: 'continue' | 'deny', outcome: 'operational-failure' | 'deny', synthetic: boolean) {
  const result: InvokeResult = {
    decision,
    synthetic,
    interrupted: false,
    audit: [{ backendId: ID, outcome, policy: 'fail-closed' }],
  };
  return { result, entry: result.audit[0] };
}

describe('outcomeRule', () => {
  it('judges a failure settled against the policy, with no reply taken, under the failure policy', () => {
    const { result, entry } = answer('continue', 'operational-failure', false);
    expect(outcomeRule(retriesUntilDeadline, result, entry)).toBe('failure-policy');
  });

  it("keeps the case's rule when the harness took a reply it should not have (the final deny)", () => {
    const { result, entry } = answer('deny', 'deny', false);
    expect(outcomeRule(retriesUntilDeadline, result, entry)).toBe('retry.inside-the-deadline');
  });

  it("keeps the case's rule when the decision follows the policy", () => {
    const { result, entry } = answer('deny', 'operational-failure', true);
    expect(outcomeRule(retriesUntilDeadline, result, entry)).toBe('retry.inside-the-deadline');
  });

  it('never judges an interrupted call by the policy', () => {
    const { result, entry } = answer('continue', 'operational-failure', false);
    expect(outcomeRule({ ...retriesUntilDeadline, interrupted: true }, result, entry)).toBe(
      'retry.inside-the-deadline',
    );
  });
});
