import { describe, expect, it } from 'vitest';
import type { HarnessCase } from './case-model.js';
import { applyOverride, deriveExpectation, refusalReason, waitsForDeadline } from './expectation.js';

const base: HarnessCase = {
  name: 'AHP-FAIL-001/x',
  requirements: ['AHP-FAIL-001'],
  transport: 'http',
  policy: 'fail-closed',
  behaviour: { kind: 'respond' },
};
const derive = (c: Partial<HarnessCase>, timeoutMs = 1000) => {
  const testCase = { ...base, ...c };
  return deriveExpectation(testCase, testCase, timeoutMs);
};

describe('deriveExpectation', () => {
  it('fail-closed turns an operational failure into a synthetic deny', () => {
    expect(derive({ behaviour: { kind: 'malformed-json' } })).toMatchObject({
      configure: 'accepted',
      decision: 'deny',
      synthetic: true,
      interrupted: false,
      wire: 'delivered',
      audit: {
        outcome: 'operational-failure',
        classes: ['malformed'],
        policy: 'fail-closed',
        synthetic: true,
      },
    });
  });

  it('fail-open continues unchanged after an operational failure', () => {
    expect(derive({ policy: 'fail-open', behaviour: { kind: 'hang' } })).toMatchObject({
      decision: 'continue',
      synthetic: false,
      audit: {
        outcome: 'operational-failure',
        classes: ['deadline-exceeded'],
        policy: 'fail-open',
        synthetic: false,
      },
    });
  });

  it('an explicit deny denies under both policies and is never synthetic', () => {
    for (const policy of ['fail-open', 'fail-closed'] as const) {
      expect(derive({ policy, behaviour: { kind: 'deny', reason: 'R' } })).toMatchObject({
        decision: 'deny',
        synthetic: false,
        denyReason: 'R',
        audit: { outcome: 'deny', synthetic: false, policy },
      });
    }
  });

  it('a valid empty answer continues with no effect', () => {
    expect(derive({})).toMatchObject({
      decision: 'continue',
      synthetic: false,
      audit: { outcome: 'no-effect' },
    });
  });

  it('endpoints and missing credentials fail before the mock: nothing may be delivered', () => {
    expect(derive({ endpoint: 'refused' })).toMatchObject({
      wire: 'none',
      audit: { classes: ['connection'] },
    });
    expect(derive({ transport: 'stdio-per_event', endpoint: 'unlaunchable' })).toMatchObject({
      wire: 'none',
      audit: { classes: ['process'] },
    });
    expect(derive({ auth: 'missing-token', policy: 'fail-open' })).toMatchObject({
      wire: 'none',
      decision: 'continue',
      audit: { classes: ['auth'] },
    });
  });

  it('a cancellation or budget before the deadline interrupts: deny, synthetic, never continue', () => {
    const cancelled = derive({
      policy: 'fail-open',
      behaviour: { kind: 'hang' },
      invoke: { cancelAfterMs: 100 },
    });
    expect(cancelled).toMatchObject({
      decision: 'deny',
      synthetic: true,
      interrupted: true,
      ending: 'cancelled',
      wire: 'any',
      audit: { outcome: 'interrupted' },
    });
    const expired = derive({ behaviour: { kind: 'hang' }, invoke: { budgetMs: 200, cancelAfterMs: 500 } });
    expect(expired).toMatchObject({ ending: 'budget-expired', audit: { outcome: 'budget-expired' } });
    // A cancel after the deadline changes nothing: the deadline settles first.
    expect(derive({ behaviour: { kind: 'hang' }, invoke: { cancelAfterMs: 5000 } })).toMatchObject({
      interrupted: false,
    });
  });

  it('a refused registration expects configure to refuse and nothing on the wire', () => {
    expect(derive({ subscription: { omit: ['failurePolicy'] } })).toMatchObject({
      configure: 'rejected',
      wire: 'none',
    });
  });

  it('uses what a step says raw bytes mean', () => {
    const step = {
      behaviour: { kind: 'raw' as const, chunks: [] },
      means: { kind: 'answer' as const, because: 'b' },
    };
    expect(deriveExpectation(base, step, 1000)).toMatchObject({
      decision: 'continue',
      audit: { outcome: 'no-effect' },
    });
  });

  it('explicit expectations win, audit field by field', () => {
    const derived = derive({ behaviour: { kind: 'malformed-json' } });
    const merged = applyOverride(derived, { wire: 'any', audit: { classes: ['malformed', 'process'] } });
    expect(merged).toMatchObject({
      wire: 'any',
      decision: 'deny',
      audit: { outcome: 'operational-failure', classes: ['malformed', 'process'] },
    });
  });
});

describe('refusalReason', () => {
  it.each([
    [{ omit: ['failurePolicy'] }, /without failurePolicy/],
    [{ omit: ['timeoutMs'] }, /without timeoutMs/],
    [{ set: { failurePolicy: 'fail-safe' } }, /failurePolicy "fail-safe"/],
    [{ set: { timeoutMs: 0 } }, /not a positive integer/],
    [{ set: { timeoutMs: -5 } }, /not a positive integer/],
    [{ set: { timeoutMs: 1.5 } }, /not a positive integer/],
    [{ set: { timeoutMs: '400' } }, /not a positive integer/],
    [
      { mode: 'observe' as const, set: { failurePolicy: 'fail-open' } },
      /observe subscription that carries failurePolicy/,
    ],
    [{ mode: 'observe' as const, set: { timeoutMs: 100 } }, /observe subscription that carries timeoutMs/],
  ])('%j is refused', (patch, reason) => {
    expect(refusalReason(patch)).toMatch(reason);
  });

  it.each([
    [undefined],
    [{ set: { timeoutMs: 100 } }],
    [{ set: { timeoutMs: 30000 } }],
    [{ mode: 'observe' as const }],
    [{ omit: ['failurePolicy'], set: { failurePolicy: 'fail-open' } }],
  ])('%j is accepted', (patch) => {
    expect(refusalReason(patch)).toBeUndefined();
  });
});

describe('waitsForDeadline', () => {
  it('is true for hangs, delays and late steps only', () => {
    expect(waitsForDeadline({ behaviour: { kind: 'hang' } })).toBe(true);
    expect(waitsForDeadline({ behaviour: { kind: 'respond' }, late: true })).toBe(true);
    expect(waitsForDeadline({ behaviour: { kind: 'delay', ms: 1, then: { kind: 'respond' } } })).toBe(true);
    expect(waitsForDeadline({ behaviour: { kind: 'malformed-json' } })).toBe(false);
  });
});

describe('the rule an expectation rests on', () => {
  it('is the failure policy for every operational failure, whatever the class, transport or case', () => {
    const failures: Partial<HarnessCase>[] = [
      { behaviour: { kind: 'malformed-json' } },
      { behaviour: { kind: 'hang' }, transport: 'stdio-persistent' },
      { auth: 'missing-token', requirements: ['AHP-FAIL-001', 'AHPX-FAIL-004'] },
      { endpoint: 'unlaunchable', transport: 'stdio-per_event' },
      { behaviour: { kind: 'respond' }, late: true, requirements: ['AHP-FAIL-001', 'AHPX-DL-002'] },
    ];
    for (const c of failures) expect(derive(c).rule).toBe('failure-policy');
  });

  it('marks a reply after the deadline, so that a harness taking it breaks the deadline instead', () => {
    expect(derive({ late: true }).lateReply).toBe(true);
    expect(derive({ behaviour: { kind: 'delay', ms: 1500, then: { kind: 'respond' } } }).lateReply).toBe(
      true,
    );
    expect(derive({ behaviour: { kind: 'hang' } }).lateReply).toBeUndefined();
  });

  it('is the answer, the deny, an interruption or a refusal rule for those', () => {
    expect(derive({}).rule).toBe('valid-result');
    expect(derive({ behaviour: { kind: 'deny' } }).rule).toBe('explicit-deny');
    expect(derive({ behaviour: { kind: 'hang' }, invoke: { cancelAfterMs: 100 } }).rule).toBe(
      'interrupt.cancel-ends-the-call',
    );
    expect(derive({ behaviour: { kind: 'hang' }, invoke: { budgetMs: 100 } }).rule).toBe(
      'budget.expiry-ends-the-call',
    );
    expect(derive({ subscription: { omit: ['failurePolicy'] } }).rule).toBe('registration.explicit-policy');
    expect(derive({ subscription: { mode: 'observe', set: { timeoutMs: 5 } } }).rule).toBe(
      'registration.observe-no-policy',
    );
  });

  it('names why a call must not be delivered', () => {
    expect(derive({ auth: 'missing-token' }).deliveryRule).toBe('delivery.no-unauthenticated-fallback');
    expect(derive({}).deliveryRule).toBe('delivery.request-sent');
  });

  it('follows an override: its rule, or the rule of the interruption it expects', () => {
    const derived = derive({ behaviour: { kind: 'hang' } });
    expect(applyOverride(derived, { rule: 'retry.resend' }).rule).toBe('retry.resend');
    const cancelled = applyOverride(derived, { interrupted: true, ending: 'cancelled' });
    expect(cancelled.rule).toBe('interrupt.cancel-ends-the-call');
    expect(applyOverride(derive({ late: true }), { interrupted: true }).lateReply).toBeUndefined();
  });
});
