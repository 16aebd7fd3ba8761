import { describe, expect, it } from 'vitest';
import type { InvokeResult } from '../../driver/index.js';
import { findingKey, type Finding } from '../../common/finding.js';
import type { Expected } from './case-model.js';
import { judgeAnswer } from './judge.js';

const messages = (findings: readonly Finding[]) => findings.map((f) => f.message);
const keys = (findings: readonly Finding[]) => findings.map(findingKey);

const ID = 'dev.ahp-conformance.mock';
const failClosed: Expected = {
  configure: 'accepted',
  decision: 'deny',
  synthetic: true,
  interrupted: false,
  wire: 'delivered',
  audit: { outcome: 'operational-failure', classes: ['malformed'], policy: 'fail-closed', synthetic: true },
  because: 'malformed reply under fail-closed',
  rule: 'failure-policy',
  deliveryRule: 'delivery.request-sent',
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
    const text = messages(problems).join('\n');
    expect(text).toMatch(/decision is "continue"/);
    expect(text).toMatch(/audit outcome is "no-effect"/);
    expect(text).toMatch(/failure class "auth" where "malformed"/);
    expect(text).toMatch(/policy "fail-open"/);
    expect(text).toMatch(/synthetic: false/);
    // The audit says the malformed reply was taken: the decision and the audit outcome show that
    // one settlement (one key, whatever the policy); the audit's other fields are rules of their own.
    expect(keys(problems)).toEqual([
      'failure-policy#reply-taken',
      'failure-policy#reply-taken',
      'audit.failure-class',
      'audit.policy',
      'synthetic.audit-distinguishable',
    ]);
    expect(problems.every((f) => f.basis.document.startsWith('spec/draft/'))).toBe(true);
  });

  it('an explicit-looking deny where a synthetic one was due fails', () => {
    const found = judgeAnswer(failClosed, { ...good, synthetic: false }, ID);
    expect(messages(found)).toEqual([
      'the denial is explicit but malformed reply under fail-closed makes it synthetic',
    ]);
    expect(keys(found)).toEqual(['failure-policy#fail-closed']);
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
    expect(messages(judgeAnswer(failClosed, answer, ID))).toEqual([
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
    const text = messages(problems).join('\n');
    expect(text).toMatch(/interrupted is true/);
    expect(text).toMatch(/never permission/);
    expect(text).toMatch(/"continue" is marked synthetic/);
    expect(text).toMatch(/no entry for the intercept subscription/);
    expect(keys(problems)).toContain('interrupt.never-permission');
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
    const found = judgeAnswer(expected, answer, ID);
    expect(messages(found)).toEqual(['the call ended "cancelled" but "budget-expired" was expected']);
    // Expiry reported as a cancellation: the two are not told apart.
    expect(keys(found)).toEqual(['budget.expiry-told-apart']);
  });

  it('judges a late reply the harness took under the deadline, not the policy', () => {
    const late: Expected = {
      ...failClosed,
      lateReply: true,
      audit: { ...failClosed.audit, classes: ['deadline-exceeded', 'late-response'] },
    };
    const took: InvokeResult = {
      decision: 'deny',
      reason: 'late deny',
      synthetic: false,
      interrupted: false,
      audit: [{ backendId: ID, outcome: 'deny', policy: 'fail-closed', synthetic: false }],
    };
    expect(new Set(judgeAnswer(late, took, ID).map((f) => f.rule))).toContain('deadline.enforced');
    // A harness that kept the deadline but failed open broke the policy.
    const failedOpen: InvokeResult = {
      decision: 'continue',
      synthetic: false,
      interrupted: false,
      audit: [{ backendId: ID, outcome: 'operational-failure', failureClass: 'deadline-exceeded' }],
    };
    expect(keys(judgeAnswer(late, failedOpen, ID))).toEqual(['failure-policy#fail-closed']);
  });

  it('an audit that records a fail-closed failure as a backend deny breaks telling them apart', () => {
    const answer: InvokeResult = {
      ...good,
      audit: [{ backendId: ID, outcome: 'deny', policy: 'fail-closed', synthetic: false }],
    };
    expect(keys(judgeAnswer(failClosed, answer, ID))).toEqual([
      'synthetic.audit-distinguishable',
      'synthetic.audit-distinguishable',
    ]);
  });
});
