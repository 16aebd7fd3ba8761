import { describe, expect, it } from 'vitest';
import type { Expected, HarnessCase } from './case-model.js';
import { answerDeadlineOutrun, deadlineRaceLost } from './run-step.js';

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
