import { describe, expect, it } from 'vitest';
import type { HarnessCase } from './case-model.js';
import { caseTimeoutMs, leavesHarnessClean } from './run-case.js';
import { scaledMargins } from './timing.js';

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
});

describe('caseTimeoutMs', () => {
  const state = { margins: scaledMargins(2) };
  it('is the scaled short deadline for waits, the answer deadline otherwise, or the exact number', () => {
    expect(caseTimeoutMs({ ...base, behaviour: { kind: 'hang' } }, state)).toBe(800);
    expect(caseTimeoutMs({ ...base, transport: 'stdio-per_event', behaviour: { kind: 'hang' } }, state)).toBe(
      5000,
    );
    expect(caseTimeoutMs(base, state)).toBe(20_000);
    expect(caseTimeoutMs({ ...base, deadline: 123 }, state)).toBe(123);
  });
});
