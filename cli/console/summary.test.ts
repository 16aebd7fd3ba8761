import { describe, expect, it } from 'vitest';
import { buildReport } from '../report/report.js';
import { sampleReport } from '../report/test-support/sample-report.js';
import type { CaseResult } from '../runner/case-result.js';
import { renderConsoleSummary } from './summary.js';

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
  it('lists each requirement with its verdict and counts, then the verdict and the report files', () => {
    const text = renderConsoleSummary(
      report([
        result('AHP-RPC-001/a'),
        result('AHP-STDIO-001/b', { status: 'fail', errors: ['x'] }),
        result('AHP-DEC-001/c', { status: 'untested', note: 'no --deny-input' }),
      ]),
      { strict: false, files: ['/tmp/r/report.json'] },
    );
    expect(text).toContain('Claim: backend; bindings stdio; profiles base, tool-interception, stdio');
    expect(text).toMatch(/ {2}PASS {5}AHP-RPC-001 {6}MUST {5}1 passed/);
    expect(text).toMatch(/ {2}FAIL {5}AHP-STDIO-001 {4}MUST {5}0 passed, 1 failed/);
    expect(text).toMatch(/ {2}UNTESTED AHP-DEC-001 {6}MUST {5}0 passed, 1 untested/);
    expect(text).toContain('Cases: 1 passed, 1 failed (MUST), 0 warning(s) (SHOULD), 1 untested');
    expect(text).toContain('Verdict: not conformant: AHP-STDIO-001 failed.');
    expect(text.endsWith('Report: /tmp/r/report.json')).toBe(true);
  });

  it('shows SHOULD-only failures as warnings and a conformant verdict unless --strict', () => {
    const r = report([result('AHP-VER-001/code', { level: 'SHOULD', status: 'fail', errors: ['-32603'] })]);
    expect(renderConsoleSummary(r, { strict: false })).toMatch(/WARN {5}AHP-VER-001/);
    expect(renderConsoleSummary(r, { strict: false })).toContain('Verdict: conformant');
    expect(renderConsoleSummary(r, { strict: true })).toContain(
      'Verdict: not conformant: AHP-VER-001 warned, and --strict fails warnings.',
    );
  });

  it('reports run errors and a rotten baseline', () => {
    const text = renderConsoleSummary(sampleReport(), { strict: false });
    expect(text).toContain('Run error: suites/harness/x.conformance.ts');
    expect(text).toContain(
      'Stale known failure: AHP-REG-001/no-policy passes now; remove line 2 of known-failures.txt.',
    );
    expect(text).toContain('Unmatched known failure: line 3 of known-failures.txt');
  });
});
