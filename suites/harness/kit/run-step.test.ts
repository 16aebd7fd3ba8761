import { describe, expect, it } from 'vitest';
import type { InvokeResult } from '../../driver/index.js';
import type { Expected, HarnessCase, StepRun } from './case-model.js';
import { CASE_BACKEND_ID } from './registration.js';
import {
  answerDeadlineOutrun,
  coldStartOutcome,
  deadlineRaceLost,
  pendingRaceLost,
  stepEvent,
  stepIds,
  stepName,
} from './run-step.js';

const testCase: HarnessCase = {
  name: 'AHP-FAIL-001/x',
  requirements: ['AHP-FAIL-001'],
  transport: 'stdio-per_event',
  policy: 'fail-closed',
  behaviour: { kind: 'hang' },
};
const expected: Expected = {
  configure: 'accepted',
  decision: 'deny',
  synthetic: true,
  interrupted: false,
  wire: 'delivered',
  audit: { outcome: 'operational-failure', classes: ['deadline-exceeded'], policy: 'fail-closed' },
  because: 'b',
  rule: 'failure-policy',
  deliveryRule: 'delivery.request-sent',
};

describe('deadlineRaceLost', () => {
  it('is a lost race when a call that had to time out never reached the mock', () => {
    expect(deadlineRaceLost(testCase, expected, 0)).toBe(true);
  });

  it('is a real verdict otherwise', () => {
    expect(deadlineRaceLost(testCase, expected, 1)).toBe(false);
    expect(deadlineRaceLost({ ...testCase, deadline: 500 }, expected, 0)).toBe(false);
    expect(deadlineRaceLost(testCase, { ...expected, wire: 'any' }, 0)).toBe(false);
    expect(
      deadlineRaceLost(testCase, { ...expected, audit: { ...expected.audit, classes: ['malformed'] } }, 0),
    ).toBe(false);
  });
});

describe('answerDeadlineOutrun', () => {
  const answered: Expected = {
    ...expected,
    decision: 'continue',
    synthetic: false,
    audit: { outcome: 'no-effect', policy: 'fail-open' },
  };
  const timedOut = { failureClass: 'deadline-exceeded', attempts: 3 };

  it('is inconclusive when the deadline ended the call before a counted attempt reached the mock', () => {
    expect(answerDeadlineOutrun(testCase, answered, timedOut, 2)).toBe(true);
  });

  it('is a real verdict otherwise', () => {
    expect(answerDeadlineOutrun(testCase, answered, timedOut, 3)).toBe(false);
    expect(answerDeadlineOutrun({ ...testCase, deadline: 500 }, answered, timedOut, 2)).toBe(false);
    expect(answerDeadlineOutrun(testCase, expected, timedOut, 2)).toBe(false);
    expect(answerDeadlineOutrun(testCase, answered, { ...timedOut, failureClass: 'malformed' }, 2)).toBe(
      false,
    );
    expect(answerDeadlineOutrun(testCase, answered, undefined, 0)).toBe(false);
  });
});

describe('pendingRaceLost', () => {
  const cancelCase: HarnessCase = {
    ...testCase,
    policy: 'fail-open',
    invoke: { cancelAfterMs: 3000 },
    needsPendingRequest: 'whether a reply after the cancellation revives the call',
  };
  const cancelled: Expected = {
    ...expected,
    interrupted: true,
    ending: 'cancelled',
    wire: 'delivered',
    audit: { outcome: 'interrupted', policy: 'fail-open' },
  };

  it('shows nothing when a rightly interrupted call ended before its request reached the mock', () => {
    expect(pendingRaceLost(cancelCase, cancelled, 0, 0)).toBe(
      'the call was cancelled before its request reached the mock',
    );
    expect(pendingRaceLost(cancelCase, { ...cancelled, ending: 'budget-expired' }, 0, 0)).toBe(
      'the call ran out of budget before its request reached the mock',
    );
  });

  it('is a verdict once the request was pending, the answer is wrong, or a check found something', () => {
    expect(pendingRaceLost(cancelCase, cancelled, 0, 1)).toBeUndefined();
    expect(pendingRaceLost(cancelCase, cancelled, 1, 0)).toBeUndefined();
    const { needsPendingRequest: _none, ...plain } = cancelCase;
    expect(pendingRaceLost(plain, cancelled, 0, 0)).toBeUndefined();
    expect(pendingRaceLost(cancelCase, { ...cancelled, interrupted: false }, 0, 0)).toBeUndefined();
  });
});

describe('stepEvent', () => {
  const state = { prefix: 'p' };

  it('keeps the v1 tool.before shape, identified by its event id and call id', () => {
    const event = stepEvent(state, 1);
    expect(event.type).toBeUndefined();
    expect(stepIds(event)).toEqual(['evt-p-1', 'call-p-1']);
    expect(stepName(event)).toBe('call-p-1');
  });

  it('names any other type, carries its sample payload and is identified by the event id', () => {
    const event = stepEvent(state, 2, 'turn.start');
    expect(event).toMatchObject({ type: 'turn.start', id: 'evt-p-2', trigger: 'user' });
    expect(stepIds(event)).toEqual(['evt-p-2']);
    expect(stepName(event)).toBe('evt-p-2');
  });

  it('gives a tool event other than tool.before a unique call id', () => {
    const event = stepEvent(state, 3, 'tool.after');
    expect(stepIds(event)).toEqual(['evt-p-3', 'call-p-3']);
  });
});

describe('coldStartOutcome', () => {
  const persistent: HarnessCase = {
    ...testCase,
    transport: 'stdio-persistent',
    behaviour: { kind: 'respond' },
  };
  const answered: Expected = {
    ...expected,
    decision: 'continue',
    synthetic: false,
    audit: { outcome: 'no-effect', policy: 'fail-closed' },
  };
  const why = 'the backend process ... was still starting';
  const runOf = (exp: Expected, result: InvokeResult): StepRun => ({
    index: 0,
    eventId: 'e',
    suggestedEventId: 'e',
    callId: 'c',
    expected: exp,
    result,
    records: { requests: [], frames: [] } as unknown as StepRun['records'],
    elapsedMs: 500,
  });
  const timedOut = (decision: 'continue' | 'deny', synthetic: boolean): InvokeResult => ({
    decision,
    synthetic,
    interrupted: false,
    eventId: 'e',
    audit: [
      {
        backendId: CASE_BACKEND_ID,
        outcome: 'operational-failure',
        mode: 'intercept',
        failureClass: 'deadline-exceeded',
        policy: 'fail-closed',
        synthetic,
      },
    ],
  });

  it('shows nothing, and blames nothing on delivery, when the deadline failure follows the policy', () => {
    const outcome = coldStartOutcome(runOf(answered, timedOut('deny', true)), persistent, why);
    expect(outcome.findings).toEqual([]);
    expect(outcome.coldStart).toBe(why);
  });

  it('judges any other answer against the case, never as an undelivered request', () => {
    const outcome = coldStartOutcome(runOf(answered, timedOut('continue', false)), persistent, why);
    expect(outcome.coldStart).toBeUndefined();
    expect(outcome.findings.length).toBeGreaterThan(0);
    expect(outcome.findings.map((f) => f.rule)).not.toContain('delivery.request-sent');
  });
});
