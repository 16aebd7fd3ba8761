import { describe, expect, it } from 'vitest';
import { FINDING_RANK, type Finding } from './finding.js';
import { groupProblems, problemOfCase, type ProblemCase } from './problems.js';

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
