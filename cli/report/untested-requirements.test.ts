import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderConsoleSummary } from '../console/summary.js';
import type { CaseResult } from '../runner/case-result.js';
import { renderHtml } from './html.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import { mergeReports } from './merge-reports.js';
import type { PartialReport } from './merge-input.js';
import { buildReport } from './report.js';
import { checkSchema } from './test-support/json-schema.js';

const schema = JSON.parse(readFileSync(new URL('./report.schema.json', import.meta.url), 'utf8')) as Record<
  string,
  unknown
>;

const WHY = 'the driver reported no audit failureClass, so AHPX-FAIL-007 was not checked';

function passing(name: string, untested?: Record<string, string>): CaseResult {
  return {
    name,
    file: 'suites/harness/families/fail-classes-http.conformance.ts',
    requirements: ['AHP-FAIL-001', 'AHPX-FAIL-007'],
    level: 'MUST',
    transports: ['http'],
    profiles: ['base'],
    status: 'pass',
    durationMs: 5,
    errors: [],
    ...(untested === undefined ? {} : { untestedRequirements: untested }),
  };
}

function reportOf(cases: CaseResult[], shard?: { index: number; count: number }) {
  return buildReport({
    ...(shard === undefined
      ? {}
      : {
          shard: {
            ...shard,
            cases: cases.map((c) => c.name),
            selected: 2,
            selection: 'same',
            balancedBy: 'case count',
          },
        }),
    version: '0.1.0',
    role: 'harness',
    target: { kind: 'driver', command: ['node', 'minimal-driver.mjs'] },
    claim: { role: 'harness', bindings: ['http'], profiles: ['tool-interception'] },
    seed: 1,
    startedAt: '2026-01-01T00:00:00Z',
    durationMs: 10,
    cases,
    runErrors: [],
  });
}

const bare = reportOf([
  passing('AHP-FAIL-001/transport:http/policy:fail-open/class:connection', { 'AHPX-FAIL-007': WHY }),
  passing('AHP-FAIL-001/transport:http/policy:fail-closed/class:connection', { 'AHPX-FAIL-007': WHY }),
]);
const requirement = (id: string) => bare.requirements.find((r) => r.id === id);

describe('a passing case that gave no evidence for one of its requirements', () => {
  it('shows untested under that requirement, with the reason, and pass under the others', () => {
    expect(requirement('AHPX-FAIL-007')?.status).toBe('untested');
    expect(requirement('AHP-FAIL-001')?.status).toBe('pass');
    expect(requirement('AHPX-FAIL-007')?.cases[0]).toMatchObject({
      status: 'pass',
      untestedRequirements: { 'AHPX-FAIL-007': WHY },
    });
  });

  it('keeps the summary per case: the case still counts as one pass', () => {
    expect(bare.summary).toMatchObject({ passed: 2, untested: 0, failed: 0 });
  });

  it('is no check of the requirement for the claim coverage', () => {
    const ti = bare.claim.coverage?.find((p) => p.profile === 'tool-interception');
    expect(ti?.checked).toContain('AHP-FAIL-001');
    expect(ti?.checked).not.toContain('AHPX-FAIL-007');
    expect(ti?.untested).toContainEqual({ id: 'AHPX-FAIL-007', reason: `no case reached a verdict: ${WHY}` });
  });

  it('passes a requirement as soon as one of its cases gave the evidence, unless another did not', () => {
    const mixed = reportOf([passing('AHP-FAIL-001/a'), passing('AHP-FAIL-001/b', { 'AHPX-FAIL-007': WHY })]);
    expect(mixed.requirements.find((r) => r.id === 'AHPX-FAIL-007')?.status).toBe('untested');
    const backed = reportOf([passing('AHP-FAIL-001/a')]);
    expect(backed.requirements.find((r) => r.id === 'AHPX-FAIL-007')?.status).toBe('pass');
  });

  it('never hides a failure: a failing case fails under every requirement it names', () => {
    const failed = reportOf([
      { ...passing('AHP-FAIL-001/a', { 'AHPX-FAIL-007': WHY }), status: 'fail', errors: ['x'] },
    ]);
    expect(failed.requirements.map((r) => r.status)).toEqual(['fail', 'fail']);
    expect(failed.requirements[0]?.cases[0]?.untestedRequirements).toBeUndefined();
  });

  it('is valid against report.schema.json', () => {
    expect(checkSchema(JSON.parse(JSON.stringify(bare)), schema)).toEqual([]);
  });

  it('reads the same in the console, Markdown, HTML and JUnit', () => {
    const consoleText = renderConsoleSummary(bare, { strict: false });
    expect(consoleText).toMatch(/UNTESTED AHPX-FAIL-007\s+MUST\s+0 passed, 2 untested/);
    expect(consoleText).toContain(`untested in 2 passing cases: ${WHY}`);
    expect(consoleText).toContain('Requirements: 1 of 2 pass');
    const md = renderMarkdown(bare, { strict: false });
    expect(md).toMatch(/\| AHPX-FAIL-007 \| MUST \| untested \| 2 untested \|/);
    expect(md).toMatch(/\| AHP-FAIL-001 \| MUST \| pass \| 2 pass \|/);
    expect(md).toContain(`AHPX-FAIL-007 untested: no case reached a verdict: ${WHY}`);
    const html = renderHtml(bare, { strict: false });
    const section = html.slice(html.indexOf('id="req-AHPX-FAIL-007"'));
    expect(section.slice(0, section.indexOf('</ul>'))).toContain(WHY);
    const junit = renderJunit(bare, { strict: false });
    expect(junit).toContain(`untested for AHPX-FAIL-007: ${WHY}`);
    expect(junit.match(/<testcase /g)).toHaveLength(2);
  });

  it('survives the merge of sharded reports', () => {
    const [a, b] = [
      passing('AHP-FAIL-001/transport:http/policy:fail-open/class:connection', { 'AHPX-FAIL-007': WHY }),
      passing('AHP-FAIL-001/transport:http/policy:fail-closed/class:connection'),
    ] as [CaseResult, CaseResult];
    const shards = [reportOf([a], { index: 1, count: 2 }), reportOf([b], { index: 2, count: 2 })];
    const parts = shards.map(
      (report, i) =>
        ({ shown: `shard-${i + 1}.json`, report: JSON.parse(JSON.stringify(report)) }) as PartialReport,
    );
    const { report } = mergeReports(parts);
    const classRequirement = report.requirements.find((r) => r.id === 'AHPX-FAIL-007');
    expect(classRequirement?.status).toBe('untested');
    expect(classRequirement?.cases.find((c) => c.name === a.name)?.untestedRequirements).toEqual({
      'AHPX-FAIL-007': WHY,
    });
  });
});
