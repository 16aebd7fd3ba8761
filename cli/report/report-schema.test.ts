import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyKnownFailures } from '../known-failures/apply.js';
import { parseKnownFailures } from '../known-failures/parse.js';
import { mergeRepeats } from '../repeat/repeat.js';
import { run } from '../run.js';
import { PACKAGE_ROOT, runConformance } from '../runner/run-conformance.js';
import { fakeIo } from '../test-support/fake-io.js';
import { buildReport } from './report.js';
import { checkSchema } from './test-support/json-schema.js';
import { sampleReport } from './test-support/sample-report.js';

const schema = JSON.parse(readFileSync(new URL('./report.schema.json', import.meta.url), 'utf8')) as Record<
  string,
  unknown
>;
const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('report.schema.json', () => {
  it('accepts the report of a real run (repeated, with a baseline applied)', async () => {
    const include = ['cli/selection/test-fixtures/*.conformance.ts'];
    const first = await runConformance({ include, provide: {} });
    const again = await runConformance({ include, provide: {} });
    const merged = mergeRepeats(first.cases, [again.cases]);
    const parsed = parseKnownFailures('AHPX-SYN-002 # fixed upstream soon\n', 'kf.txt');
    if (!parsed.ok) throw new Error(parsed.message);
    const { cases, summary } = applyKnownFailures(merged, parsed.baseline);
    const report = buildReport({
      version: '0.1.0',
      role: 'harness',
      target: { kind: 'driver', command: ['node', 'x.mjs'] },
      claim: { role: 'harness', bindings: ['stdio'], profiles: ['base'] },
      seed: 5,
      startedAt: new Date().toISOString(),
      durationMs: 100,
      cases,
      runErrors: first.runErrors,
      options: { seed: 5 },
      baseline: summary,
    });
    expect(report.requirements.length).toBeGreaterThan(0);
    expect(report.baseline?.stale).toHaveLength(1);
    expect(report.requirements.flatMap((r) => r.cases).some((c) => c.repeat?.verdict === 'pass')).toBe(true);
    expect(checkSchema(roundTrip(report), schema)).toEqual([]);
  });

  it(
    'accepts the report.json the backend command writes for a real backend',
    { timeout: 180_000 }, // spawns the example backend for each probe session
    async () => {
      const out = mkdtempSync(join(tmpdir(), 'ahp-schema-backend-'));
      const backend = join(PACKAGE_ROOT, 'fixtures/backends/correct-backend.mjs');
      const f = fakeIo(
        ['backend', '--reporter', 'json', '--output-dir', out, '--stdio', '--', process.execPath, backend],
        { env: process.env },
      );
      expect(await run(f.io), f.err()).toBe(0);
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { role: string };
      expect(report.role).toBe('backend');
      expect(checkSchema(report, schema)).toEqual([]);
    },
  );

  it('accepts a report with every status, evidence, a repeat summary and run errors', () => {
    expect(checkSchema(roundTrip(sampleReport()), schema)).toEqual([]);
  });

  it('rejects reports that break the contract, naming the path', () => {
    const report = roundTrip(sampleReport()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    report.requirements[0].cases[0].status = 'passed';
    delete report.summary.blocked;
    report.extra = true;
    report.seed = -1;
    report.problems[0].id = 'first';
    report.requirements[0].cases[0].blockedBy = 'AHP-TB-001';
    const errors = checkSchema(report, schema);
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^\/requirements\/0\/cases\/0\/status: must be equal to one of the allowed values/,
        ),
        "/summary: must have required property 'blocked'",
        '/: must NOT have additional properties "extra"',
        '/seed: must be >= 0',
        expect.stringMatching(/^\/problems\/0\/id: must match pattern/),
        expect.stringMatching(/^\/requirements\/0\/cases\/0\/blockedBy: must match pattern/),
      ]),
    );
  });

  it('lists the problems, blocked cases and the blocked status as the schema shapes them', () => {
    const report = roundTrip(sampleReport()) as ReturnType<typeof sampleReport>;
    expect(report.problems.map((p) => [p.id, p.requirement, p.level, p.cases.length, p.failing])).toEqual([
      ['p1', 'AHP-TB-001', 'MUST', 3, 1],
      ['p2', 'AHP-FAIL-002', 'MUST', 1, 1],
      ['p3', 'AHPX-SYN-002', 'SHOULD', 1, 1],
      ['p4', 'AHP-HTTP-001', 'MUST', 1, 1],
    ]);
    expect(report.problems[0]?.sentence).toEqual({
      document: 'spec/draft/server/lifecycle-observation.md',
      anchor: 'AHP-TB-001',
      text: 'a tool.before event carries the call id in call.id',
    });
    expect(report.problems[3]?.knownFailure).toEqual({
      line: 1,
      pattern: 'AHP-HTTP-001/**',
      reason: 'upstream bug',
    });
    const cases = report.requirements.flatMap((r) => r.cases);
    expect(cases.find((c) => c.name === 'AHP-CORE-004/retry-keeps-call-id')).toMatchObject({
      status: 'blocked',
      blockedBy: 'p1',
    });
    expect(cases.find((c) => c.name.startsWith('AHP-TB-001/'))).toMatchObject({
      problem: 'p1',
      findings: [{ rule: 'tool-before.call-id' }],
    });
    expect(report.summary.blocked).toBe(2);
    expect(report.requirements.find((r) => r.id === 'AHP-CORE-004')?.status).toBe('blocked');
  });
});
