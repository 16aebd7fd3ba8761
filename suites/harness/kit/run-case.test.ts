import { describe, expect, it } from 'vitest';
import type { HarnessCase } from './case-model.js';
import type { Behaviour } from '../../../mock-backend/index.js';
import { caseTimeoutMs, leavesHarnessClean } from './run-case.js';
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
