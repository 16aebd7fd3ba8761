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
    delete report.summary.untested;
    report.extra = true;
    report.seed = -1;
    const errors = checkSchema(report, schema);
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\$\.requirements\[0\]\.cases\[0\]\.status: "passed" is not one of/),
        '$.summary: missing required "untested"',
        '$: unexpected "extra"',
        '$.seed: -1 is below 0',
      ]),
    );
  });

  it('is checked by a checker that refuses keywords it does not implement', () => {
    expect(() => checkSchema(1, { oneOf: [] })).toThrow(/"oneOf" is not supported/);
  });
});
