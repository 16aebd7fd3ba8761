import { describe, expect, it } from 'vitest';
import type { InvokeResult } from '../../driver/index.js';
import type { Expected } from './case-model.js';
import { judgeAnswer } from './judge.js';

const ID = 'dev.ahp-conformance.mock';
const failClosed: Expected = {
  configure: 'accepted',
  decision: 'deny',
  synthetic: true,
  interrupted: false,
  wire: 'delivered',
  audit: { outcome: 'operational-failure', classes: ['malformed'], policy: 'fail-closed', synthetic: true },
  because: 'malformed reply under fail-closed',
};
const good: InvokeResult = {
  decision: 'deny',
  reason: 'Required policy backend unavailable.',
  synthetic: true,
  interrupted: false,
  audit: [
    {
      backendId: ID,
      outcome: 'operational-failure',
      failureClass: 'malformed',
      policy: 'fail-closed',
      synthetic: true,
    },
  ],
};

describe('judgeAnswer', () => {
  it('accepts an answer that matches, and one that leaves optional audit fields out', () => {
    expect(judgeAnswer(failClosed, good, ID)).toEqual([]);
    expect(
      judgeAnswer(failClosed, { ...good, audit: [{ backendId: ID, outcome: 'operational-failure' }] }, ID),
    ).toEqual([]);
  });

  it('reports a wrong decision, a wrong synthetic flag, and every audit mismatch at once', () => {
    const problems = judgeAnswer(
      failClosed,
      {
        decision: 'continue',
        synthetic: false,
        interrupted: false,
        audit: [
          {
            backendId: ID,
            outcome: 'no-effect',
            failureClass: 'auth',
            policy: 'fail-open',
            synthetic: false,
          },
        ],
      },
      ID,
    );
    expect(problems).toHaveLength(5);
    expect(problems.join('\n')).toMatch(/decision is "continue"/);
    expect(problems.join('\n')).toMatch(/audit outcome is "no-effect"/);
    expect(problems.join('\n')).toMatch(/failure class "auth" where "malformed"/);
    expect(problems.join('\n')).toMatch(/policy "fail-open"/);
    expect(problems.join('\n')).toMatch(/synthetic: false/);
  });

  it('an explicit-looking deny where a synthetic one was due fails', () => {
    expect(judgeAnswer(failClosed, { ...good, synthetic: false }, ID)).toEqual([
      'the denial is explicit but malformed reply under fail-closed makes it synthetic',
    ]);
  });

  it('a failure class outside the accepted ones fails', () => {
    const answer = {
      ...good,
      audit: [
        {
          ...good.audit[0],
          backendId: ID,
          outcome: 'operational-failure' as const,
          failureClass: 'process' as const,
        },
      ],
    };
    expect(judgeAnswer(failClosed, answer, ID)).toEqual([
      'the audit names failure class "process" where "malformed" was expected',
    ]);
  });

  it('an interrupted continue and a synthetic continue are never acceptable', () => {
    const open: Expected = {
      ...failClosed,
      decision: 'continue',
      synthetic: false,
      audit: { ...failClosed.audit, policy: 'fail-open', synthetic: false },
    };
    const problems = judgeAnswer(
      open,
      { decision: 'continue', synthetic: true, interrupted: true, audit: [] },
      ID,
    );
    expect(problems.join('\n')).toMatch(/interrupted is true/);
    expect(problems.join('\n')).toMatch(/never permission/);
    expect(problems.join('\n')).toMatch(/"continue" is marked synthetic/);
    expect(problems.join('\n')).toMatch(/no entry for the intercept subscription/);
  });

  it('ignores observe entries and boundary copies of the same backend', () => {
    const answer: InvokeResult = {
      ...good,
      audit: [
        { backendId: ID, outcome: 'no-effect', mode: 'observe' },
        { backendId: ID, outcome: 'skipped', boundaryCopy: true },
        ...good.audit,
      ],
    };
    expect(judgeAnswer(failClosed, answer, ID)).toEqual([]);
  });

  it('checks the ending of an interrupted call when the driver reports it', () => {
    const expected: Expected = {
      ...failClosed,
      interrupted: true,
      ending: 'budget-expired',
      audit: { outcome: 'budget-expired', policy: 'fail-closed' },
    };
    const answer: InvokeResult = {
      ...good,
      interrupted: true,
      ending: 'cancelled',
      audit: [{ backendId: ID, outcome: 'budget-expired' }],
    };
    expect(judgeAnswer(expected, answer, ID)).toEqual([
      'the call ended "cancelled" but "budget-expired" was expected',
    ]);
  });
});
