import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../io.js';
import { verdictText } from '../report/verdict.js';
import { NOT_RUN_AFTER_BAIL } from '../runner/case-result.js';
import { parseXml } from '../report/test-support/xml.js';
import { runSuite, type SuiteRunPlan } from './suite-run.js';
import { fixturePlan, SLOW } from './test-support/fixture-plan.js';
import { FLIPPED_NOTE } from './timing-reruns.js';
import { writeReports } from './write-reports.js';

const plan = (args: string[], baseline?: string) => fixturePlan(args, baseline);

/** Runs a plan with a runner that only notes it was called: what the run threw, and whether it ran. */
async function refusal(p: SuiteRunPlan): Promise<{ error: unknown; ran: boolean }> {
  let ran = false;
  const runner = async () => {
    ran = true;
    return { cases: [], runErrors: [] };
  };
  const error = await runSuite({ ...p, runner }).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, ran };
}

const statusOf = (report: Awaited<ReturnType<typeof runSuite>>['report'], name: string) =>
  report.requirements.flatMap((r) => r.cases).find((c) => c.name === name);

describe('runSuite', () => {
  it('runs every case and fails the run on a MUST failure', SLOW, async () => {
    const seen: string[] = [];
    const p = await plan([]);
    const { report, exitCode } = await runSuite({ ...p, onCase: (c) => seen.push(c.name) });
    expect(exitCode).toBe(1);
    expect(report.summary).toMatchObject({ passed: 3, failed: 1, warnings: 1, untested: 1 });
    expect(statusOf(report, 'AHP-CORE-004/fixture/fails')?.evidence).toBeDefined();
    expect(report.seed).toBe(77);
    expect(report.options).toMatchObject({ seed: 77, repeat: 1 });
    expect(seen).toHaveLength(6);
    // Without a selection every file runs (this is what the selection test relies on to see none did).
    expect(existsSync(join(p.provide.pipelineCounterDir as string, 'other-started'))).toBe(true);
  });

  it('runs only the selection, and repeats timing cases into a flaky verdict', SLOW, async () => {
    const repeats: number[] = [];
    const p = await plan(['--only', 'AHP-FAIL-002', 'AHP-FAIL-001', '--repeat', '3']);
    const repeated: string[] = [];
    const { report, exitCode } = await runSuite({
      ...p,
      onRepeat: (run) => repeats.push(run),
      onRepeated: (cases) => repeated.push(...cases.map((c) => `${c.name}: ${c.repeat?.verdict}`)),
    });
    // The other file holds no selected case: it is not started, and its case is reported skipped.
    const counterDir = p.provide.pipelineCounterDir as string;
    expect(existsSync(join(counterDir, 'other-started'))).toBe(false);
    expect(statusOf(report, 'AHP-STDIO-001/fixture/other-file')).toMatchObject({
      status: 'skipped',
      note: 'not selected (--only/--skip)',
    });
    expect(repeats).toEqual([2, 3]);
    expect(repeated).toContain('AHP-FAIL-002/fixture/deadline-flaky: flaky');
    expect(statusOf(report, 'AHP-FAIL-002/fixture/deadline-flaky')).toMatchObject({
      status: 'fail',
      note: 'flaky: passed 2 of 3 runs',
      repeat: { runs: 3, passed: 2, failed: 1, verdict: 'flaky' },
    });
    // AHP-FAIL-001's case is not a timing case: run once.
    expect(statusOf(report, 'AHP-FAIL-001/fixture/passes')?.repeat).toBeUndefined();
    expect(statusOf(report, 'AHP-CORE-004/fixture/fails')).toMatchObject({
      status: 'skipped',
      note: 'not selected (--only/--skip)',
    });
    expect(exitCode).toBe(1);
  });

  it('tolerates listed failures but fails on a stale baseline line', SLOW, async () => {
    const p = await plan(['--known-failures', 'kf.txt', '--skip', 'AHP-FAIL-002']);
    const progress = new Map<string, string>();
    const { report, exitCode } = await runSuite({ ...p, onCase: (c) => progress.set(c.name, c.status) });
    expect(statusOf(report, 'AHP-CORE-004/fixture/fails')?.status).toBe('known-failure');
    // Progress shows a listed failure as the report will, never as a failure.
    expect(progress.get('AHP-CORE-004/fixture/fails')).toBe('known-failure');
    expect(report.summary.failed).toBe(0);
    expect(report.baseline).toMatchObject({
      file: 'kf.txt',
      tolerated: 1,
      stale: [{ pattern: 'AHP-FAIL-001', line: 2, passing: ['AHP-FAIL-001/fixture/passes'] }],
      narrow: [],
    });
    expect(report.problems[0]).toMatchObject({ requirement: 'AHP-CORE-004', knownFailure: { line: 1 } });
    expect(exitCode).toBe(1);
  });

  it(
    '--bail stops at the first MUST failure: what follows is reported not run, never passed',
    SLOW,
    async () => {
      const p = await plan(['--bail', '--skip', 'AHP-STDIO-001']);
      const { report, exitCode } = await runSuite(p);
      expect(exitCode).toBe(1);
      expect(statusOf(report, 'AHP-FAIL-001/fixture/passes')?.status).toBe('pass');
      expect(statusOf(report, 'AHP-CORE-004/fixture/fails')?.status).toBe('fail');
      for (const name of ['AHPX-SYN-002/fixture/should-fails', 'AHP-HTTP-001/fixture/untested']) {
        expect(statusOf(report, name)).toMatchObject({ status: 'skipped', note: NOT_RUN_AFTER_BAIL });
      }
      expect(report.summary).toMatchObject({ passed: 2, failed: 1, warnings: 0, untested: 0 });
      expect(report.options).toMatchObject({ bail: true });
      expect(verdictText(report, false)).toContain(
        '2 not run (--bail stopped the run at the first failed case)',
      );
    },
  );

  it('--bail does not stop at a SHOULD failure or a failure the baseline tolerates', SLOW, async () => {
    const p = await plan(['--bail', '--known-failures', 'kf.txt', '--skip', 'AHP-FAIL-001']);
    const { report } = await runSuite(p);
    expect(statusOf(report, 'AHP-CORE-004/fixture/fails')?.status).toBe('known-failure');
    expect(statusOf(report, 'AHPX-SYN-002/fixture/should-fails')?.status).toBe('fail');
    expect(statusOf(report, 'AHP-HTTP-001/fixture/untested')?.status).toBe('untested');
  });

  it('refuses a known-failures line that matches no case before running anything', SLOW, async () => {
    const p = await plan(
      ['--known-failures', 'kf.txt'],
      'AHP-CORE-004/fixture/fails # ok\nAHP-AUTH-001 # typo\n',
    );
    const { error, ran } = await refusal(p);
    expect(error).toBeInstanceOf(UsageError);
    expect(String(error)).toMatch(
      /the known-failures file "kf.txt" line 2: "AHP-AUTH-001" matches no case of the harness suite/,
    );
    expect(ran).toBe(false);
    // A line matching a case the selection leaves out is no typo: it is accepted.
    const only = await refusal(await plan(['--known-failures', 'kf.txt', '--only', 'AHP-FAIL-001']));
    expect(only).toEqual({ error: undefined, ran: true });
  });

  it('refuses a selector that matches no case before running anything', SLOW, async () => {
    const { error, ran } = await refusal(await plan(['--only', 'AHP-AUTH-001']));
    expect(error).toBeInstanceOf(UsageError);
    expect(String(error)).toMatch(/--only "AHP-AUTH-001" matches no case/);
    expect(ran).toBe(false);
  });
});

describe('runSuite on a busy machine', () => {
  it(
    'runs a failing timing case once more: a pass then makes it flaky, and flaky still fails the run',
    SLOW,
    async () => {
      const p = await plan(['--only', 'AHP-FAIL-002']);
      // The fixture's timing case fails on every second run: the first run here is its second.
      writeFileSync(join(p.provide.pipelineCounterDir as string, 'runs'), '1');
      const phases: string[] = [];
      const repeated: string[] = [];
      const { report, exitCode } = await runSuite({
        ...p,
        onPhase: (text) => phases.push(text),
        onRepeated: (cases) => repeated.push(...cases.map((c) => `${c.name}: ${c.repeat?.verdict}`)),
      });
      expect(phases).toContain(
        'Running the 1 failing timing case once more: one whose verdict flips is reported flaky.',
      );
      expect(repeated).toEqual(['AHP-FAIL-002/fixture/deadline-flaky: flaky']);
      expect(statusOf(report, 'AHP-FAIL-002/fixture/deadline-flaky')).toMatchObject({
        status: 'fail',
        note: FLIPPED_NOTE,
        repeat: { runs: 2, passed: 1, failed: 1, verdict: 'flaky' },
      });
      expect(exitCode).toBe(1);
    },
  );

  it(
    'measures the machine before timing cases: waits scale by the larger of it and --timeout-scale',
    SLOW,
    async () => {
      const provided: unknown[] = [];
      const p = await plan(['--only', 'AHP-FAIL-002', '--timeout-scale', '1.5']);
      const { report } = await runSuite({
        ...p,
        measureMachine: () => Promise.resolve(2.5),
        runner: (o) => {
          provided.push(o.provide.ahpSettings);
          return Promise.resolve({ cases: [], runErrors: [] });
        },
      });
      expect(provided).toEqual([expect.objectContaining({ timeoutScale: 2.5, precisionScale: 1.5 })]);
      expect(report.options).toMatchObject({
        timeoutScale: 1.5,
        machineScale: 2.5,
        effectiveTimeoutScale: 2.5,
      });
    },
  );

  it('does not measure for a selection without timing cases', SLOW, async () => {
    let measured = false;
    const p = await plan(['--only', 'AHP-FAIL-001']);
    const { report } = await runSuite({
      ...p,
      measureMachine: () => {
        measured = true;
        return Promise.resolve(4);
      },
    });
    expect(measured).toBe(false);
    expect(report.options).toMatchObject({ machineScale: 1, effectiveTimeoutScale: 1 });
  });
});

describe('writeReports', () => {
  it('writes one file per file reporter, each readable', SLOW, async () => {
    const p = await plan(['--reporter', 'console,json,junit,html']);
    const { report } = await runSuite(p);
    const written = await writeReports(report, p.options);
    expect(written.map((f) => f.slice(p.options.outputDir.length + 1))).toEqual([
      'report.json',
      'junit.xml',
      'report.html',
    ]);
    expect(JSON.parse(readFileSync(written[0] as string, 'utf8'))).toEqual(
      JSON.parse(JSON.stringify(report)),
    );
    expect(parseXml(readFileSync(written[1] as string, 'utf8')).name).toBe('testsuites');
    expect(parseXml(readFileSync(written[2] as string, 'utf8')).name).toBe('html');
    await expect(writeReports(report, { ...p.options, reporters: ['markdown'] }, {})).rejects.toThrow(
      /no renderer for the markdown reporter/,
    );
  });
});
