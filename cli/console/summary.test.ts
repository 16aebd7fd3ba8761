import { describe, expect, it } from 'vitest';
import { buildReport } from '../report/report.js';
import { sampleReport } from '../report/test-support/sample-report.js';
import type { CaseResult } from '../runner/case-result.js';
import { CONSOLE_PROBLEMS_SHOWN, renderConsoleSummary } from './summary.js';

function result(name: string, over: Partial<CaseResult> = {}): CaseResult {
  return {
    name,
    file: 'x',
    requirements: [name.split('/')[0] as string],
    level: 'MUST',
    transports: ['stdio-persistent'],
    profiles: [],
    status: 'pass',
    durationMs: 1,
    errors: [],
    ...over,
  };
}

function report(cases: CaseResult[]) {
  return buildReport({
    version: '0.1.0',
    role: 'backend',
    target: {},
    claim: { role: 'backend', bindings: ['stdio'], profiles: ['base', 'tool-interception', 'stdio'] },
    seed: 0,
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 2500,
    cases,
    runErrors: [],
  });
}

describe('console summary', () => {
  it('opens with the problems, then the requirements that did not pass, the verdict and the report files', () => {
    const text = renderConsoleSummary(
      report([
        result('AHP-RPC-001/a'),
        result('AHP-STDIO-001/b', { status: 'fail', errors: ['- line 1 is not JSON'] }),
        result('AHP-DEC-001/c', { status: 'untested', note: 'the backend does not announce the deny input' }),
      ]),
      { strict: false, files: ['/tmp/r/report.json'] },
    );
    const lines = text.split('\n');
    expect(lines.slice(1, 6)).toEqual([
      '1 distinct problem:',
      '  p1   AHP-STDIO-001 MUST: AHP-STDIO-001 is not met',
      expect.stringMatching(/^ {7}breaks spec\/draft\/base\/transports\/stdio.md#AHP-STDIO-001: /),
      '       first seen in AHP-STDIO-001/b: line 1 is not JSON',
      '       explains 1 case that failed',
    ]);
    expect(text).toContain('Claim: backend; bindings stdio; profiles base, tool-interception, stdio');
    expect(text).toContain('  stdio: fully exercised (1 of 1 requirement checked)');
    expect(text).toMatch(/ {2}base: partly exercised \(1 of \d+ requirements checked; not checked: /);
    expect(text).toContain('Requirements: 1 of 3 pass; the others:');
    expect(text).not.toMatch(/PASS {5}AHP-RPC-001/);
    expect(text).toMatch(/ {2}FAIL {5}AHP-STDIO-001 {4}MUST {5}0 passed, 1 failed/);
    expect(text).toMatch(/ {2}UNTESTED AHP-DEC-001 {6}MUST {5}0 passed, 1 untested/);
    expect(text).toContain('Cases: 1 passed, 1 failed (MUST), 0 warnings (SHOULD), 1 untested, 0 blocked');
    expect(text).toContain(
      'Verdict: not conformant: 1 problem fails the run (AHP-STDIO-001); 2 of 3 cases judged; 1 untested (the target does not announce the deny input).',
    );
    expect(text.endsWith('Report: /tmp/r/report.json')).toBe(true);
  });

  it('says how much a conformant run exercised', () => {
    const all = report([result('AHP-RPC-001/a'), result('AHP-RPC-001/b')]);
    expect(renderConsoleSummary(all, { strict: false })).toContain(
      'Verdict: conformant: all 2 cases judged, no MUST requirement failed.',
    );
    const some = report([
      result('AHP-RPC-001/a'),
      result('AHP-HTTP-001/b', { status: 'untested', note: 'the driver does not declare the http binding' }),
      result('AHP-FAIL-002/c', {
        status: 'untested',
        note: 'the driver does not announce features.stdioPersistent, features.retries',
      }),
      result('AHP-FAIL-002/d', {
        status: 'untested',
        note: 'the driver does not announce features.events with turn.start',
      }),
      result('AHP-FAIL-002/e', {
        status: 'untested',
        note: 'the driver does not announce features.events with tool.after',
      }),
    ]);
    expect(renderConsoleSummary(some, { strict: false })).toContain(
      'Verdict: conformant on what ran: 1 of 5 cases; 4 untested (the target does not announce events, stdioPersistent, retries, http).',
    );
  });

  it('shows SHOULD-only failures as warnings and a conformant verdict unless --strict', () => {
    const r = report([result('AHP-VER-001/code', { level: 'SHOULD', status: 'fail', errors: ['-32603'] })]);
    expect(renderConsoleSummary(r, { strict: false })).toMatch(/WARN {5}AHP-VER-001/);
    expect(renderConsoleSummary(r, { strict: false })).toContain(
      'Verdict: conformant: the one case judged, no MUST requirement failed; 1 SHOULD warning.',
    );
    expect(renderConsoleSummary(r, { strict: true })).toContain(
      'Verdict: not conformant: 1 problem fails the run (AHP-VER-001); 1 SHOULD warning under --strict; 1 of 1 case judged.',
    );
  });

  it('reports blocked cases, run errors and the baseline: stale lines to remove, broad ones to narrow', () => {
    const text = renderConsoleSummary(sampleReport(), { strict: false });
    expect(text).toContain('4 distinct problems (1 covered by known failures):');
    expect(text).toContain('       explains 1 case that failed, blocks 2 cases');
    expect(text).toContain('       known failure (line 1): upstream bug');
    expect(text).toMatch(/BLOCKED {2}AHP-CORE-004 {5}MUST {5}0 passed, 1 untested, 2 blocked/);
    expect(text).toContain('Requirements: 2 of 9 pass, 1 not run (skipped); the others:');
    expect(text).not.toContain('AHP-STDIO-001    MUST     0 passed, 1 skipped');
    expect(text).toContain('Run error: suites/harness/x.conformance.ts');
    expect(text).toContain(
      'Stale known failure: line 2 of known-failures.txt (AHP-REG-001) matches no failing case any more (1 pass); remove the line.',
    );
    expect(text).toContain(
      'Known failure line 1 of known-failures.txt (AHP-HTTP-001/**) also matches passing cases: AHP-HTTP-001/status-200; narrow the pattern.',
    );
    expect(text).toContain('; 2 blocked (by p1);');
  });
});

describe('console summary of a broadly failing run', () => {
  it('details the first problems and names the rest in one line', () => {
    const cases = Array.from({ length: CONSOLE_PROBLEMS_SHOWN + 3 }, (_, i) =>
      result(
        `${['AHP-FAIL-001', 'AHP-FAIL-002', 'AHP-CORE-003', 'AHP-CORE-004', 'AHP-DEC-001', 'AHP-DEC-002', 'AHP-DEC-003', 'AHP-REG-001', 'AHP-REG-002', 'AHP-TB-001', 'AHP-CAP-001', 'AHP-CAP-002', 'AHP-EXT-001'][i]}/x`,
        {
          status: 'fail',
          errors: ['boom'],
        },
      ),
    );
    const text = renderConsoleSummary(report(cases), { strict: false });
    expect(text).toContain('13 distinct problems:');
    expect(text).toContain('  p10  AHP-TB-001 MUST');
    expect(text).not.toContain('  p11  ');
    expect(text).toContain(
      '  and 3 more: p11 AHP-CAP-001, p12 AHP-CAP-002, p13 AHP-EXT-001 (the reports list them all)',
    );
  });
});
