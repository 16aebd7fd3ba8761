import { describe, expect, it } from 'vitest';
import type { CaseStatus } from '../runner/case-result.js';
import { applyKnownFailures, baselineFails } from './apply.js';
import { parseKnownFailures, type KnownFailures } from './parse.js';

function baseline(text: string): KnownFailures {
  const parsed = parseKnownFailures(text, 'kf.txt');
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.baseline;
}

function c(name: string, status: CaseStatus, requirements = [name.split('/')[0] as string]) {
  return { name, status, requirements, profiles: ['tool-interception'] };
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
  it('tolerates listed failures, flags listed passes as stale and patterns matching nothing', () => {
    const b = baseline('AHP-FAIL-001/a # tracked\nAHP-FAIL-002/* # tracked too\nAHPX-SHUT-001 # gone case\n');
    const run = [
      c('AHP-FAIL-001/a', 'fail'),
      c('AHP-FAIL-002/b', 'pass'),
      c('AHP-FAIL-002/c', 'untested'),
      c('AHP-CORE-001/d', 'fail'),
    ];
    const { cases, summary } = applyKnownFailures(run, b);
    expect(cases.map((x) => x.status)).toEqual(['known-failure', 'pass', 'untested', 'fail']);
    expect(cases[0]?.note).toBe('known failure (line 1): tracked');
    expect(summary).toEqual({
      file: 'kf.txt',
      tolerated: 1,
      stale: [{ case: 'AHP-FAIL-002/b', pattern: 'AHP-FAIL-002/*', line: 2 }],
      unmatched: [{ pattern: 'AHPX-SHUT-001', line: 3 }],
    });
    expect(baselineFails(summary)).toBe(true);
  });

  it('counts a pattern as matched when it matches a collected case outside this run', () => {
    const b = baseline('AHP-HTTP-001 # http not selected today\nAHP-FAIL-001/a # tracked\n');
    const universe = [c('AHP-FAIL-001/a', 'fail'), c('AHP-HTTP-001/x', 'pass')];
    const { summary } = applyKnownFailures([c('AHP-FAIL-001/a', 'fail')], b, universe);
    expect(summary).toMatchObject({ tolerated: 1, stale: [], unmatched: [] });
    expect(baselineFails(summary)).toBe(false);
    expect(baselineFails(undefined)).toBe(false);
  });
});
