import { describe, expect, it } from 'vitest';
import type { CaseStatus } from '../runner/case-result.js';
import { UsageError } from '../io.js';
import { CALL_ID, LATE_REPLY } from '../report/test-support/sample-report.js';
import { applyKnownFailures, baselineFails } from './apply.js';
import { checkKnownFailuresMatch } from './check.js';
import type { CoverableCase } from './cover.js';
import { parseKnownFailures, type KnownFailures } from './parse.js';

function baseline(text: string): KnownFailures {
  const parsed = parseKnownFailures(text, 'kf.txt');
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.baseline;
}

function c(
  name: string,
  status: CaseStatus,
  requirements = [name.split('/')[0] as string],
): CoverableCase & { status: CaseStatus } {
  return {
    name,
    status,
    requirements,
    profiles: ['tool-interception'],
    level: 'MUST' as const,
    errors: [`${name} failed`],
  };
}

describe('parseKnownFailures', () => {
  it('reads patterns with reasons, skipping comments, blank lines, CRLF and a BOM', () => {
    const b = baseline(
      '\uFEFF# our baseline\r\n\r\nAHP-FAIL-002/transport:http/** # late replies leak\r\n  AHPX-SYN-002 #  generic reason pending \n',
    );
    expect(b.entries.map((e) => [e.pattern, e.reason, e.line, e.selector.kind])).toEqual([
      ['AHP-FAIL-002/transport:http/**', 'late replies leak', 3, 'pattern'],
      ['AHPX-SYN-002', 'generic reason pending', 4, 'requirement'],
    ]);
  });

  it('reports the first malformed line with the file, the line and the fix', () => {
    expect(parseKnownFailures('AHP-FAIL-001\n', 'kf.txt')).toEqual({
      ok: false,
      message:
        'the known-failures file "kf.txt" line 1 gives no reason for "AHP-FAIL-001"; write it as "<pattern> # <why it fails>".',
    });
    expect(parseKnownFailures('# c\nAHP-FAIL-001 #   \n', 'kf.txt')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/line 2 gives no reason/),
    });
    expect(parseKnownFailures(' # only a reason\nAHP-NOPE-001 # x', 'kf.txt')).toMatchObject({
      ok: false,
      message: expect.stringMatching(
        /line 2: "AHP-NOPE-001" is not a requirement ID.*; fix or remove that line\.$/,
      ),
    });
    expect(parseKnownFailures('a/* # x\na/* # y\n', 'kf.txt')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/line 2 repeats "a\/\*" from line 1; keep one of them/),
    });
  });
});

describe('applyKnownFailures', () => {
  it('tolerates listed failures and judges each line on every case it matches', () => {
    const b = baseline(
      'AHP-FAIL-001/** # tracked\nAHP-FAIL-002 # fixed now?\nAHP-CORE-004/x # tracked too\n',
    );
    const run = [
      c('AHP-FAIL-001/a', 'fail'),
      c('AHP-FAIL-001/b', 'pass'),
      c('AHP-FAIL-002/c', 'pass'),
      c('AHP-FAIL-002/d', 'untested'),
      c('AHP-CORE-004/x', 'fail'),
      c('AHP-CORE-003/y', 'fail'),
    ];
    const { cases, summary } = applyKnownFailures(run, b);
    expect(cases.map((x) => x.status)).toEqual([
      'known-failure',
      'pass',
      'pass',
      'untested',
      'known-failure',
      'fail',
    ]);
    expect(cases[0]?.note).toBe('known failure (line 1): tracked');
    // Line 1 still tolerates a failure: not stale, even though one of its cases passes.
    expect(summary.stale).toEqual([{ pattern: 'AHP-FAIL-002', line: 2, passing: ['AHP-FAIL-002/c'] }]);
    expect(summary.narrow).toEqual([{ pattern: 'AHP-FAIL-001/**', line: 1, passing: ['AHP-FAIL-001/b'] }]);
    expect(summary.tolerated).toBe(2);
    expect(summary.entries.map((e) => [e.line, e.failing, e.problems])).toEqual([
      [1, 1, ['case:AHP-FAIL-001']],
      [2, 0, []],
      [3, 1, ['case:AHP-CORE-004']],
    ]);
    expect(baselineFails(summary)).toBe(true);
  });

  it('never calls a line stale whose cases all pass in this shard while another shard runs more of them', () => {
    const b = baseline('AHP-FAIL-001 # tracked\n');
    const { summary } = applyKnownFailures([c('AHP-FAIL-001/a', 'pass')], b, [c('AHP-FAIL-001/z', 'fail')]);
    expect(summary.stale).toEqual([]);
    expect(summary.entries[0]).toMatchObject({ failing: 0, passing: ['AHP-FAIL-001/a'], elsewhere: true });
    expect(baselineFails(summary)).toBe(false);
    expect(baselineFails(undefined)).toBe(false);
  });

  it('a line is not stale while nothing it matches ran to a verdict', () => {
    const b = baseline('AHP-FAIL-001 # tracked\n');
    const { summary } = applyKnownFailures([c('AHP-FAIL-001/a', 'untested')], b);
    expect(summary.stale).toEqual([]);
  });

  it('a line for the root problem covers the cases it explains and blocks; a line for a blocked case does not', () => {
    const run = [
      { ...c('AHP-TB-001/call-id', 'fail'), findings: [CALL_ID] },
      { ...c('AHP-CORE-004/retry', 'fail'), findings: [CALL_ID, LATE_REPLY] },
      { ...c('AHP-FAIL-001/blocked', 'blocked'), blockedBy: CALL_ID },
    ];
    const root = applyKnownFailures(run, baseline('AHP-TB-001 # the call id bug\n'));
    expect(root.cases.map((x) => x.status)).toEqual(['known-failure', 'known-failure', 'blocked']);
    expect(root.cases[1]?.note).toBe('known failure (line 1, through AHP-TB-001): the call id bug');
    expect(root.summary.entries[0]?.problems).toEqual(['tool-before.call-id#in-tool']);
    expect(root.summary.stale).toEqual([]);
    const blockedOnly = applyKnownFailures(run.slice(2), baseline('AHP-TB-001/** # the call id bug\n'));
    expect(blockedOnly.summary.entries[0]?.problems).toEqual(['tool-before.call-id#in-tool']);
    // A line naming only a blocked case matches no failure and covers no problem: the root stays open.
    const leaf = applyKnownFailures(run, baseline('AHP-FAIL-001 # blocked anyway\n'));
    expect(leaf.cases.map((x) => x.status)).toEqual(['fail', 'fail', 'blocked']);
    expect(leaf.summary.entries[0]?.problems).toEqual([]);
  });
});

describe('checkKnownFailuresMatch', () => {
  const suite = [c('AHP-FAIL-001/transport:http/a', 'pass'), c('AHP-CORE-004/x', 'pass')];

  it('refuses a line that matches no case of the suite, naming the file and the line', () => {
    expect(() =>
      checkKnownFailuresMatch(baseline('AHP-FAIL-001 # ok\nAHP-FAIL-00*/http # typo\n'), suite, 'harness'),
    ).toThrow(
      /^the known-failures file "kf.txt" line 2: "AHP-FAIL-00\*\/http" matches no case of the harness suite.*; fix the pattern or remove the line/,
    );
    expect(() => checkKnownFailuresMatch(baseline('*/a # x\n'), suite, 'harness')).toThrow(
      /\(`\*` stops at `\/`; "\*\*\/a" would match\)/,
    );
    expect(() =>
      checkKnownFailuresMatch(baseline('AHP-HTTP-001 # no http case\n'), suite, 'backend'),
    ).toThrow(UsageError);
  });

  it('accepts lines that match a case, selected or not', () => {
    expect(() =>
      checkKnownFailuresMatch(baseline('AHP-CORE-004 # x\n**/transport:http/** # y\n'), suite, 'harness'),
    ).not.toThrow();
  });
});
