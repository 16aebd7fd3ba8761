import { describe, expect, it } from 'vitest';
import type { Expected, HarnessCase } from './case-model.js';
import { deadlineRaceLost } from './run-step.js';

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
