import { describe, expect, it } from 'vitest';
import { fastFailures, predictChain, predictRetries } from './properties-model.js';

describe('the properties model', () => {
  it('passes answers along a chain and continues at its end', () => {
    expect(
      predictChain([
        { policy: 'fail-closed', outcome: 'answer' },
        { policy: 'fail-open', outcome: 'answer' },
      ]),
    ).toEqual({
      decision: 'continue',
      synthetic: false,
      deliveries: 2,
      rule: 'valid-result',
      deliveriesRule: 'composition.chain',
    });
  });

  it('ends the chain at an explicit deny under either policy, never synthetic', () => {
    for (const policy of ['fail-open', 'fail-closed'] as const) {
      expect(
        predictChain([
          { policy, outcome: 'deny' },
          { policy, outcome: 'answer' },
        ]),
      ).toEqual({
        decision: 'deny',
        synthetic: false,
        deliveries: 1,
        rule: 'explicit-deny',
        deliveriesRule: 'composition.chain',
      });
    }
  });

  it('passes a failure under fail-open and ends it with a synthetic deny under fail-closed', () => {
    expect(
      predictChain([
        { policy: 'fail-open', outcome: 'failure' },
        { policy: 'fail-closed', outcome: 'failure' },
      ]),
    ).toEqual({
      decision: 'deny',
      synthetic: true,
      deliveries: 2,
      rule: 'failure-policy',
      way: 'fail-closed',
      deliveriesRule: 'composition.chain',
    });
    expect(predictChain([{ policy: 'fail-open', outcome: 'failure' }])).toEqual({
      decision: 'continue',
      synthetic: false,
      deliveries: 1,
      rule: 'failure-policy',
      way: 'fail-open',
      deliveriesRule: 'composition.chain',
    });
  });

  it('retries failures while retries are left and then takes the final answer', () => {
    expect(predictRetries({ failures: 2, final: 'deny', retries: 2, policy: 'fail-open' })).toEqual({
      decision: 'deny',
      synthetic: false,
      deliveries: 3,
      rule: 'retry.resend',
      deliveriesRule: 'retry.resend',
    });
    expect(predictRetries({ failures: 3, final: 'answer', retries: 2, policy: 'fail-closed' })).toEqual({
      decision: 'deny',
      synthetic: true,
      deliveries: 3,
      rule: 'failure-policy',
      way: 'fail-closed',
      deliveriesRule: 'retry.resend',
    });
    expect(predictRetries({ failures: 0, final: 'answer', retries: 3, policy: 'fail-closed' })).toEqual({
      decision: 'continue',
      synthetic: false,
      deliveries: 1,
      rule: 'valid-result',
      deliveriesRule: 'retry.resend',
    });
  });
});

describe('fastFailures', () => {
  it('leaves a reply under another id out on persistent stdio only, where it waits for the deadline', () => {
    const labels = (t: Parameters<typeof fastFailures>[0]) => fastFailures(t).map((f) => f.label);
    expect(labels('http')).toContain('mismatched-id');
    expect(labels('stdio-per_event')).toContain('mismatched-id');
    expect(labels('stdio-persistent')).not.toContain('mismatched-id');
    expect(labels('stdio-persistent')).toEqual(labels('http').filter((l) => l !== 'mismatched-id'));
  });
});
