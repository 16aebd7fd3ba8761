// The documented minimal driver through the bin, on the failure-class cases of its one binding:
// every requirement a case passes is backed by a field the driver reported in that case's
// answers. The same driver with every optional field taken out of its answers gets no pass for
// a requirement that rests on one (AHPX-FAIL-007, the audit's failure class), and says why.
// Two harness runs of about half a minute each: kept out of `npm test`, a step of `.ci/run`.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../protocol/json.js';
import type { Report } from '../cli/report/report.js';
import { caseVerdictFor } from '../cli/report/status.js';
import type { InvokeResult } from '../suites/driver/index.js';
import type { Expected, StepRun } from '../suites/harness/kit/case-model.js';
import { interceptEntries } from '../suites/harness/kit/judge.js';
import { CASE_BACKEND_ID } from '../suites/harness/kit/registration.js';
import { REPORTED_FIELDS, requirementEvidence } from '../suites/harness/kit/rule-evidence.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'ahp-conformance.mjs');
const MINIMAL = ['node', join(ROOT, 'docs', 'examples', 'minimal-driver.mjs')];
const STRIPPED = [
  'node',
  join(ROOT, 'suites', 'driver', 'test-drivers', 'without-optional-fields.mjs'),
  ...MINIMAL,
];
const ONLY = 'AHP-FAIL-001/transport:stdio-per_event/**';
const work = mkdtempSync(join(tmpdir(), 'ahp-evidence-e2e-'));

async function harnessRun(name: string, driver: string[]): Promise<Report> {
  const out = join(work, name);
  const argv = [BIN, 'harness', '--only', ONLY, '--reporter', 'json', '--output-dir', out, '--', ...driver];
  const result = await execa(process.execPath, argv, { cwd: ROOT, reject: false });
  if (!existsSync(join(out, 'report.json'))) {
    throw new Error(`ahp-conformance harness exited ${String(result.exitCode)}: ${result.stderr}`);
  }
  return JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
}

interface StepShown {
  expected: Expected;
  answer: InvokeResult;
  wire: { requests: number };
}

/** The calls of a case as its evidence shows them, in the shape the field readings take. */
function callsOf(evidence: JsonValue | undefined): StepRun[] {
  const steps = ((evidence as { steps?: StepShown[] } | undefined)?.steps ?? []) as StepShown[];
  return steps.map((s, index) => ({
    index,
    eventId: '',
    suggestedEventId: '',
    callId: '',
    expected: s.expected,
    result: s.answer,
    records: { frames: [], requests: Array.from({ length: s.wire.requests }), notifications: [] },
    elapsedMs: 0,
  })) as unknown as StepRun[];
}

/** Every pass a requirement gets that no reported field backs: "<requirement> <case>". */
function unbackedPasses(report: Report): string[] {
  const unbacked: string[] = [];
  for (const r of report.requirements) {
    const fields = requirementEvidence(r.id) ?? [];
    if (fields.length === 0) continue;
    for (const c of r.cases.filter((x) => caseVerdictFor(x, r.id) === 'pass')) {
      const calls = callsOf(c.evidence);
      const backed = fields.some((f) => {
        const reading = REPORTED_FIELDS[f];
        const entry = (call: StepRun) => interceptEntries(call.result, CASE_BACKEND_ID)[0];
        const reported = calls.filter((call) => reading.reported(call, entry(call)));
        const missing = calls.filter(
          (call) => !reading.reported(call, entry(call)) && reading.matters(call, entry(call)),
        );
        return reported.length > 0 && missing.length === 0;
      });
      if (!backed) unbacked.push(`${r.id} ${c.name}`);
    }
  }
  return unbacked;
}

const passing = (report: Report) => report.requirements.filter((r) => r.status === 'pass').map((r) => r.id);

describe('the minimal driver, judged on the fields it reports', () => {
  it('gets each pass from a field it reported', async () => {
    const report = await harnessRun('minimal', MINIMAL);
    expect(report.summary.passed).toBeGreaterThan(10);
    expect(passing(report)).toContain('AHPX-FAIL-007');
    expect(unbackedPasses(report)).toEqual([]);
  });

  it('without its optional fields, gets no pass for a requirement that rests on one, and the reason', async () => {
    const report = await harnessRun('stripped', STRIPPED);
    expect(report.summary.passed).toBeGreaterThan(10);
    expect(passing(report)).toContain('AHP-FAIL-001');
    const classRequirement = report.requirements.find((r) => r.id === 'AHPX-FAIL-007');
    expect(classRequirement?.status).toBe('untested');
    for (const c of classRequirement?.cases.filter((x) => x.status === 'pass') ?? []) {
      expect(c.untestedRequirements?.['AHPX-FAIL-007']).toBe(
        'the driver reported no audit failureClass, so AHPX-FAIL-007 was not checked',
      );
    }
    expect(unbackedPasses(report)).toEqual([]);
  });
});
