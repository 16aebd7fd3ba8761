import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../runner/case-result.js';
import type { CaseStatus } from '../runner/case-result.js';
import { buildReport, conformanceExitCode, requirementStatus } from './report.js';

function result(over: Partial<CaseResult>): CaseResult {
  return {
    name: 'AHP-FAIL-001/x',
    file: 'suites/x.conformance.ts',
    requirements: ['AHP-FAIL-001'],
    level: 'MUST',
    transports: ['http'],
    profiles: ['tool-interception'],
    status: 'pass',
    durationMs: 3,
    errors: [],
    ...over,
  };
}

const base = {
  version: '0.1.0',
  role: 'harness' as const,
  target: { kind: 'reference' },
  claim: { role: 'harness' as const, bindings: ['http'], profiles: ['base'] },
  seed: 1,
  startedAt: '2026-01-01T00:00:00Z',
  durationMs: 10,
  runErrors: [],
};

describe('requirement status', () => {
  const must = (status: CaseStatus) => ({ status, level: 'MUST' as const });
  it('fails on any failing case and never passes a partly untested requirement', () => {
    expect(requirementStatus([must('pass'), must('fail'), must('untested')])).toBe('fail');
    expect(requirementStatus([must('pass'), must('untested')])).toBe('untested');
    expect(requirementStatus([must('pass'), must('skipped')])).toBe('pass');
    expect(requirementStatus([must('skipped')])).toBe('skipped');
  });
});

describe('buildReport', () => {
  it('lists each requirement with its cases and counts MUST failures apart from SHOULD warnings', () => {
    const report = buildReport({
      ...base,
      cases: [
        result({ name: 'AHP-FAIL-001/a' }),
        result({
          name: 'AHPX-SYN-002/b',
          requirements: ['AHPX-SYN-002'],
          level: 'SHOULD',
          status: 'fail',
          errors: ['x'],
        }),
        result({
          name: 'AHP-CORE-004/c',
          requirements: ['AHP-CORE-004', 'AHP-FAIL-002'],
          status: 'untested',
          note: 'no retries',
        }),
      ],
    });
    expect(report.requirements.map((r) => [r.id, r.status])).toEqual([
      ['AHP-CORE-004', 'untested'],
      ['AHP-FAIL-001', 'pass'],
      ['AHP-FAIL-002', 'untested'],
      ['AHPX-SYN-002', 'warn'],
    ]);
    expect(report.summary).toMatchObject({ passed: 1, failed: 0, untested: 1, warnings: 1 });
    expect(conformanceExitCode(report, false)).toBe(0);
    expect(conformanceExitCode(report, true)).toBe(1);
  });

  it('fails the run on a MUST failure or a run error', () => {
    const failing = buildReport({ ...base, cases: [result({ status: 'fail', errors: ['boom'] })] });
    expect(conformanceExitCode(failing, false)).toBe(1);
    const crashed = buildReport({ ...base, cases: [result({})], runErrors: ['suite crashed'] });
    expect(conformanceExitCode(crashed, false)).toBe(1);
  });
});

describe('baseline in the exit code', () => {
  it('fails the run on a stale line, and not on tolerated failures', () => {
    const cases = [
      result({ status: 'known-failure', note: 'known failure (line 1): tracked', errors: ['boom'] }),
    ];
    const entry = {
      pattern: 'AHP-FAIL-001',
      line: 1,
      reason: 'tracked',
      failing: 1,
      passing: [],
      problems: ['case:AHP-FAIL-001'],
    };
    const clean = { file: 'kf.txt', tolerated: 1, stale: [], narrow: [], entries: [entry] };
    const report = buildReport({ ...base, cases, baseline: clean });
    expect(report.problems[0]?.knownFailure).toEqual({ line: 1, pattern: 'AHP-FAIL-001', reason: 'tracked' });
    expect(conformanceExitCode(report, false)).toBe(0);
    const stale = { ...clean, stale: [{ pattern: 'AHP-CORE-004', line: 2, passing: ['AHP-CORE-004/x'] }] };
    expect(conformanceExitCode(buildReport({ ...base, cases, baseline: stale }), false)).toBe(1);
    // A line that covers no problem leaves the problem open: the run fails.
    const uncovered = { ...clean, entries: [{ ...entry, problems: [] }] };
    expect(conformanceExitCode(buildReport({ ...base, cases, baseline: uncovered }), false)).toBe(1);
  });

  it('fails the run on a MUST problem that shows only blocked cases, unless a line covers it', () => {
    const blocker = {
      rule: 'stdio.framing',
      requirement: 'AHP-STDIO-001',
      level: 'MUST' as const,
      basis: {
        document: 'spec/draft/base/transports/stdio.md',
        anchor: 'AHP-STDIO-001',
        level: 'MUST' as const,
        rule: 'one JSON object per line',
      },
      rank: 0 as const,
      summary: 'the harness writes frames that are not one JSON object per line',
      message: 'line 1 is not JSON',
    };
    const cases = [result({ status: 'blocked', note: 'line 1 is not JSON', blockedBy: blocker })];
    const report = buildReport({ ...base, cases });
    expect(report.summary).toMatchObject({ passed: 0, failed: 0, blocked: 1 });
    expect(report.requirements[0]).toMatchObject({ status: 'blocked', cases: [{ blockedBy: 'p1' }] });
    expect(report.problems).toMatchObject([
      { id: 'p1', requirement: 'AHP-STDIO-001', failing: 0, cases: ['AHP-FAIL-001/x'] },
    ]);
    expect(conformanceExitCode(report, false)).toBe(1);
    const entry = {
      pattern: 'AHP-STDIO-001',
      line: 1,
      reason: 'framing',
      failing: 0,
      passing: [],
      problems: ['stdio.framing'],
    };
    const covered = buildReport({
      ...base,
      cases,
      baseline: { file: 'kf', tolerated: 0, stale: [], narrow: [], entries: [entry] },
    });
    expect(conformanceExitCode(covered, false)).toBe(0);
    // A SHOULD problem fails the run only under --strict.
    const should = buildReport({
      ...base,
      cases: [result({ status: 'blocked', blockedBy: { ...blocker, level: 'SHOULD' } })],
    });
    expect([conformanceExitCode(should, false), conformanceExitCode(should, true)]).toEqual([0, 1]);
  });

  it('says per claimed profile what was checked, untested or excluded, never more', () => {
    const report = buildReport({
      ...base,
      claim: { role: 'harness', bindings: ['http'], profiles: ['tool-interception'] },
      cases: [
        result({ name: 'AHP-FAIL-001/a' }),
        result({
          name: 'AHP-CORE-004/c',
          requirements: ['AHP-CORE-004'],
          status: 'untested',
          note: 'no retries',
        }),
      ],
    });
    const [ti] = report.claim.coverage ?? [];
    expect(ti?.profile).toBe('tool-interception');
    expect(ti?.checked).toEqual(['AHP-FAIL-001']);
    expect(ti?.untested).toContainEqual({
      id: 'AHP-CORE-004',
      reason: 'no case reached a verdict: no retries',
    });
    expect(ti?.untested.map((u) => u.id)).toContain('AHP-FAIL-002');
    // Every requirement now has cases: one this run did not select is untested, never excluded.
    expect(ti?.excluded).toEqual([]);
    expect(ti?.untested).toContainEqual({
      id: 'AHP-DEC-002',
      reason: 'no case of it ran (not selected, or none applies to this target)',
    });
  });
});
