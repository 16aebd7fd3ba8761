import { describe, expect, it } from 'vitest';
import { FINDING_RANK, type Finding } from './finding.js';
import { groupProblems, problemOfCase, type ProblemCase } from './problems.js';
import type { InvokeResult } from '../driver/index.js';
import type { HarnessCase } from '../harness/kit/case-model.js';
import { deriveExpectation } from '../harness/kit/expectation.js';
import { judgeAnswer } from '../harness/kit/judge.js';

const basis = {
  document: 'spec/draft/base/failure.md',
  anchor: 'AHP-FAIL-001',
  level: 'MUST',
  rule: 'r',
} as const;

function finding(rule: string, rank: Finding['rank'], requirement = 'AHP-FAIL-001', way?: string): Finding {
  return {
    rule,
    ...(way === undefined ? {} : { way }),
    requirement,
    level: 'MUST',
    basis,
    rank,
    summary: `${rule} broken`,
    message: `${rule} broken here`,
  };
}

const failing = (name: string, ...findings: Finding[]): ProblemCase => ({
  name,
  status: 'fail',
  requirements: ['AHP-FAIL-001'],
  level: 'MUST',
  findings,
});

describe('groupProblems', () => {
  it('makes one problem of one rule broken the same way in many cases, whatever their requirements', () => {
    const f = finding('policy.fail-closed-denies', FINDING_RANK.decision);
    const problems = groupProblems([
      failing('AHP-FAIL-001/a', f),
      { ...failing('AHPX-DL-002/b', f), requirements: ['AHPX-DL-002'] },
    ]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ id: 'p1', requirement: 'AHP-FAIL-001', failing: 2 });
    expect(problems[0]?.cases).toEqual(['AHP-FAIL-001/a', 'AHPX-DL-002/b']);
  });

  it('explains a case by its most fundamental finding, and lists that problem first', () => {
    const framing = finding('stdio.framing', FINDING_RANK.framing, 'AHP-STDIO-001');
    const decision = finding('policy.fail-closed-denies', FINDING_RANK.decision);
    const problems = groupProblems([failing('a', decision, framing), failing('b', decision)]);
    expect(problems.map((p) => [p.key, p.cases])).toEqual([
      ['stdio.framing', ['a']],
      ['policy.fail-closed-denies', ['b']],
    ]);
  });

  it('leaves out a finding whose every case a more fundamental problem explains', () => {
    const framing = finding('stdio.framing', FINDING_RANK.framing, 'AHP-STDIO-001');
    const decision = finding('policy.fail-closed-denies', FINDING_RANK.decision);
    expect(groupProblems([failing('a', decision, framing)]).map((p) => p.key)).toEqual(['stdio.framing']);
  });

  it('tells ways of breaking one rule apart', () => {
    const problems = groupProblems([
      failing('a', finding('deadline', FINDING_RANK.decision, 'AHP-FAIL-002', 'late-reply-taken')),
      failing('b', finding('deadline', FINDING_RANK.decision, 'AHP-FAIL-002', 'settled-late')),
    ]);
    expect(problems.map((p) => p.key)).toEqual(['deadline#late-reply-taken', 'deadline#settled-late']);
  });

  it('lists blocked cases under the problem that blocks them, even when no case failed of it', () => {
    const framing = finding('stdio.framing', FINDING_RANK.framing, 'AHP-STDIO-001');
    const problems = groupProblems([
      { name: 'x', status: 'blocked', requirements: ['AHP-FAIL-001'], level: 'MUST', blockedBy: framing },
      { name: 'y', status: 'pass', requirements: ['AHP-FAIL-001'], level: 'MUST' },
    ]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ key: 'stdio.framing', failing: 0, cases: ['x'] });
    expect(problemOfCase(problems).get('x')?.id).toBe('p1');
  });

  it('lists a problem that explains no failing case after every one that does, however fundamental', () => {
    const deadline = finding('request.answered', FINDING_RANK.framing, 'AHP-RPC-002');
    const decision = finding('policy.fail-closed-denies', FINDING_RANK.decision);
    const problems = groupProblems([
      { name: 'x', status: 'blocked', requirements: ['AHP-FAIL-001'], level: 'MUST', blockedBy: deadline },
      { name: 'y', status: 'blocked', requirements: ['AHP-FAIL-001'], level: 'MUST', blockedBy: deadline },
      failing('a', decision),
    ]);
    expect(problems.map((p) => [p.id, p.key, p.failing])).toEqual([
      ['p1', 'policy.fail-closed-denies', 1],
      ['p2', 'request.answered', 0],
    ]);
  });

  it('gives a failure without findings a problem of its requirement, from its first error line', () => {
    const problems = groupProblems([
      {
        name: 'z',
        status: 'fail',
        requirements: ['AHP-TB-001'],
        level: 'MUST',
        errors: ['expected 1\nto be 2'],
      },
    ]);
    expect(problems[0]).toMatchObject({ requirement: 'AHP-TB-001', key: 'case:AHP-TB-001' });
    expect(problems[0]?.evidence).toEqual({ case: 'z', message: 'expected 1' });
  });
});

/**
 * Realistic findings: the harness kit's own judge, on expectations derived from cases like the
 * suite's, against the answers a defective harness gives.
 */
describe('groupProblems on judged answers: one defect is one problem', () => {
  const ID = 'dev.ahp-conformance.mock';
  const kase = (over: Partial<HarnessCase>): HarnessCase => ({
    name: 'AHP-FAIL-001/x',
    requirements: ['AHP-FAIL-001', 'AHPX-FAIL-007'],
    transport: 'http',
    policy: 'fail-closed',
    behaviour: { kind: 'respond' },
    ...over,
  });
  /** A case judged by the kit: its findings are what the judge found in the answer. */
  const judged = (testCase: HarnessCase, timeoutMs: number, answer: InvokeResult): ProblemCase => {
    const name = `${testCase.name}/transport:${testCase.transport}/policy:${testCase.policy ?? ''}`;
    return failing(name, ...judgeAnswer(deriveExpectation(testCase, testCase, timeoutMs), answer, ID));
  };
  /** The answer of a harness that took the reply `[]` as the backend's: continue, nothing to apply. */
  const tookEmptyReply: InvokeResult = {
    decision: 'continue',
    synthetic: false,
    interrupted: false,
    audit: [{ backendId: ID, outcome: 'no-effect' }],
  };
  /** The answer of a harness whose client gave up before the deadline: its policy applied. */
  const gaveUp = (policy: 'fail-open' | 'fail-closed'): InvokeResult => ({
    decision: policy === 'fail-open' ? 'continue' : 'deny',
    synthetic: policy === 'fail-closed',
    interrupted: false,
    audit: [{ backendId: ID, outcome: 'operational-failure', failureClass: 'deadline-exceeded', policy }],
  });
  const mediaType = kase({ name: 'media-type-not-json', behaviour: { kind: 'wrong-content-type' } });
  /** A reply at 6 s inside a 12 s deadline: later than a common client default, still in time. */
  const lateInTime = kase({
    name: 'reply-after-client-default',
    behaviour: { kind: 'delay', ms: 6000, then: { kind: 'respond' } },
  });

  it('a non-JSON media type taken as an answer under fail-open and under fail-closed is one problem', () => {
    const cases = [
      judged({ ...mediaType, policy: 'fail-open' }, 1000, tookEmptyReply),
      judged({ ...mediaType, policy: 'fail-closed' }, 1000, tookEmptyReply),
    ];
    expect(cases.every((c) => (c.findings ?? []).length > 0)).toBe(true);
    const problems = groupProblems(cases);
    expect(problems.map((p) => [p.requirement, p.failing])).toEqual([['AHP-FAIL-001', 2]]);
    expect(problems[0]?.rank).toBe(FINDING_RANK.decision);
  });

  it('a client that gives up before the deadline is one problem under both policies', () => {
    const problems = groupProblems([
      judged({ ...lateInTime, policy: 'fail-open' }, 12_000, gaveUp('fail-open')),
      judged({ ...lateInTime, policy: 'fail-closed' }, 12_000, gaveUp('fail-closed')),
    ]);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.cases).toHaveLength(2);
  });

  it('the same defect on two transports (persistent stdio, HTTP) is one problem', () => {
    const problems = groupProblems([
      judged({ ...lateInTime, transport: 'stdio-persistent' }, 12_000, gaveUp('fail-closed')),
      judged({ ...lateInTime, transport: 'http' }, 12_000, gaveUp('fail-closed')),
      judged({ ...mediaType, transport: 'http', policy: 'fail-open' }, 1000, tookEmptyReply),
      judged({ ...mediaType, transport: 'http', policy: 'fail-closed' }, 1000, tookEmptyReply),
    ]);
    expect(problems.map((p) => p.cases.length)).toEqual([2, 2]);
  });

  it('keeps different defects apart: a reply wrongly taken, a reply wrongly given up on, a policy not applied', () => {
    const policyNotApplied: InvokeResult = {
      decision: 'continue',
      synthetic: false,
      interrupted: false,
      audit: [
        { backendId: ID, outcome: 'operational-failure', failureClass: 'malformed', policy: 'fail-closed' },
      ],
    };
    const problems = groupProblems([
      judged({ ...mediaType, name: 'a' }, 1000, tookEmptyReply),
      judged({ ...lateInTime, name: 'b' }, 12_000, gaveUp('fail-closed')),
      judged({ ...mediaType, name: 'c' }, 1000, policyNotApplied),
    ]);
    expect(problems).toHaveLength(3);
    expect(new Set(problems.map((p) => p.summary)).size).toBe(3);
  });
});

describe('groupProblems ranks', () => {
  it('ranks a problem by its most fundamental sighting, whichever case came first', () => {
    const seenInAudit = finding('settled', FINDING_RANK.report);
    const seenInDecision = finding('settled', FINDING_RANK.decision);
    const other = finding('audit.policy', FINDING_RANK.report, 'AHPX-FAIL-007');
    const problems = groupProblems([
      failing('a', seenInAudit),
      failing('b', other),
      failing('c', seenInDecision, other),
    ]);
    expect(problems.map((p) => [p.key, p.rank, p.cases])).toEqual([
      ['settled', FINDING_RANK.decision, ['a', 'c']],
      ['audit.policy', FINDING_RANK.report, ['b']],
    ]);
  });
});
