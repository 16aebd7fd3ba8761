import { describe, expect, it } from 'vitest';
import type { HarnessCase } from './case-model.js';
import type { Behaviour } from '../../../mock-backend/index.js';
import { CaseFailure } from '../../common/finding.js';
import { caseTimeoutMs, leavesHarnessClean, refusedUnresolvedToken } from './run-case.js';
import { scaledHarnessMargins } from './timing.js';

const base: HarnessCase = {
  name: 'AHP-FAIL-001/x',
  requirements: ['AHP-FAIL-001'],
  transport: 'stdio-persistent',
  policy: 'fail-open',
  behaviour: { kind: 'malformed-json' },
};

describe('leavesHarnessClean', () => {
  it('lets a following case keep the harness only after answers that leave nothing pending', () => {
    expect(leavesHarnessClean({ ...base, then: [{ behaviour: { kind: 'deny' } }] })).toBe(true);
    expect(leavesHarnessClean({ ...base, then: [{ behaviour: { kind: 'hang' } }] })).toBe(false);
    expect(leavesHarnessClean({ ...base, behaviour: { kind: 'exit', code: 1 } })).toBe(false);
    expect(leavesHarnessClean({ ...base, late: true })).toBe(false);
    expect(leavesHarnessClean({ ...base, invoke: { cancelAfterMs: 10 } })).toBe(false);
  });

  it('keeps it after a sequence only when each of its branches answers at once', () => {
    const failure: Behaviour = { kind: 'rpc-error', code: -32603 };
    const retried = (last: Behaviour, second: Behaviour = failure): Behaviour => ({
      kind: 'sequence',
      steps: [failure, second],
      then: last,
    });
    expect(leavesHarnessClean({ ...base, behaviour: retried({ kind: 'respond' }) })).toBe(true);
    const slow: Behaviour = { kind: 'delay', ms: 5, then: failure };
    expect(leavesHarnessClean({ ...base, behaviour: retried({ kind: 'respond' }, slow) })).toBe(false);
    expect(leavesHarnessClean({ ...base, behaviour: retried({ kind: 'hang' }) })).toBe(false);
  });
});

describe('caseTimeoutMs', () => {
  const state = { margins: scaledHarnessMargins(2) };
  it('is the scaled short deadline for waits, the answer deadline otherwise, or the exact number', () => {
    expect(caseTimeoutMs({ ...base, behaviour: { kind: 'hang' } }, state)).toBe(800);
    expect(caseTimeoutMs({ ...base, transport: 'stdio-per_event', behaviour: { kind: 'hang' } }, state)).toBe(
      5000,
    );
    expect(caseTimeoutMs(base, state)).toBe(20_000);
    expect(caseTimeoutMs({ ...base, deadline: 123 }, state)).toBe(123);
  });
});

describe('refusedUnresolvedToken', () => {
  const tokenCase: HarnessCase = {
    ...base,
    transport: 'http',
    auth: 'missing-token',
    behaviour: { kind: 'respond' },
    requirements: ['AHP-FAIL-001', 'AHPX-FAIL-004'],
  };
  const issues = [{ path: 'hooks[0].authentication.tokenEnv', message: 'is not set' }];
  const ctx = {
    untested: (reason: string): never => {
      throw new Error(`untested: ${reason}`);
    },
  };

  it('fails the policy case under the authentication-failure rule, not as a refused valid registration', () => {
    let thrown: unknown;
    try {
      refusedUnresolvedToken(tokenCase, issues, ctx);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CaseFailure);
    const findings = (thrown as CaseFailure).findings;
    expect(findings.map((f) => [f.rule, f.requirement])).toEqual([
      ['auth.failure-follows-policy', 'AHPX-FAIL-004'],
    ]);
    expect(findings[0]?.message).toMatch(/follows the fail-open policy when the call is dispatched/);
  });

  it('leaves a case about fallback delivery untested: nothing was delivered', () => {
    expect(() =>
      refusedUnresolvedToken({ ...tokenCase, requirements: ['AHPX-FAIL-005'] }, issues, ctx),
    ).toThrow(/untested: .*nothing was delivered/);
  });
});
