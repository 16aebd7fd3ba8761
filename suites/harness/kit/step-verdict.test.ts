import { describe, expect, it } from 'vitest';
import type { Expected, HarnessCase } from './case-model.js';
import { finding } from './rules.js';
import { framesSince, judgedByCase, stepBlocker } from './step-verdict.js';
import { ANSWERED, unparseableFrame } from './test-support/wire-samples.js';
import type { CaseRecords } from './wire-records.js';

const testCase: HarnessCase = {
  name: 'AHP-FAIL-001/x',
  requirements: ['AHP-FAIL-001', 'AHPX-FAIL-007'],
  transport: 'stdio-persistent',
  policy: 'fail-closed',
  behaviour: { kind: 'respond' },
};
const expected = ANSWERED;
const garbage = unparseableFrame('not json', { atWallMs: 1000, connectionId: 'c1' });
const none: CaseRecords = { frames: [], requests: [], notifications: [] };

describe('judgedByCase', () => {
  it('judges a cross-cutting rule only in the cases of its requirement, every other rule always', () => {
    const id = finding('intercept.id-is-event-id', 'delivery 1: the JSON-RPC id 1 is not the event id');
    const policy = finding('failure-policy', 'the decision is "continue"', { way: 'fail-closed' });
    const subjectElsewhere = finding('synthetic.audit-distinguishable', 'the audit marks the entry');
    const split = judgedByCase([id, policy, subjectElsewhere], testCase.requirements);
    expect(split.judged).toEqual([policy, subjectElsewhere]);
    expect(split.noticed).toEqual([id]);
    expect(judgedByCase([id], ['AHP-CORE-004']).judged).toEqual([id]);
  });
});

describe('stepBlocker', () => {
  it('blocks a step whose expectation needs the answer and whose frames hold no request', () => {
    expect(stepBlocker(testCase, expected, none, [garbage])?.rule).toBe('stdio.framing');
  });

  it('judges instead when nothing arrived, a request was found, or nothing had to be delivered', () => {
    expect(stepBlocker(testCase, expected, none, [])).toBeUndefined();
    const found: CaseRecords = { frames: [garbage], requests: [garbage], notifications: [] };
    expect(stepBlocker(testCase, expected, found, [garbage])).toBeUndefined();
    expect(stepBlocker(testCase, { ...expected, wire: 'none' }, none, [garbage])).toBeUndefined();
    expect(stepBlocker(testCase, { ...expected, wire: 'any' }, none, [garbage])).toBeUndefined();
  });

  it('judges a case whose subject is delivery itself', () => {
    const dispatch: HarnessCase = { ...testCase, name: 'AHP-REG-002/x', requirements: ['AHP-REG-002'] };
    const selected: Expected = { ...expected, deliveryRule: 'dispatch.selector' };
    expect(stepBlocker(dispatch, selected, none, [garbage])).toBeUndefined();
  });
});

describe('framesSince', () => {
  it('keeps the frames recorded since the step began that are not the call', () => {
    const entry = (delivery: number, wall: number) => ({
      type: 'inbound' as const,
      delivery,
      transport: 'stdio' as const,
      connectionId: 'c1',
      at: { monotonic: wall, wall },
      bytes: { text: 'x' },
      kind: 'unparseable' as const,
      attempt: 1,
      rule: null,
      planned: false,
      behaviour: { kind: 'respond' as const },
    });
    const call: CaseRecords = { frames: [{ ...garbage, delivery: 3 }], requests: [], notifications: [] };
    const kept = framesSince([entry(1, 10), entry(2, 50), entry(3, 60)], 40, call);
    expect(kept.map((f) => f.delivery)).toEqual([2]);
  });
});
