/**
 * The harness suite judged both ways: the bundled reference harness passes the whole suite with an
 * empty baseline, so does a second driver of it that declares only the stdio binding and refuses
 * `configure` after `close` (every HTTP case untested, with its reason), and each broken twin (fixtures/harnesses/) fails exactly the requirement IDs its
 * catalogue entry names, on its selection of files and cases, as at most two problems
 * (`groupProblems`: one defect is one problem, named once) of those IDs, each failing case with
 * findings that cite their sentence. Everything runs through the CLI's runner
 * (`runConformance`), in-process, a few runs at a time.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TWIN_CATALOGUE } from '../../fixtures/harnesses/catalogue.js';
import { bundleTwins } from '../../fixtures/harnesses/lib/bundle.js';
import { bundleStdioOnlyDriver } from '../../suites/driver/test-drivers/bundle-stdio-only.js';
import { OPERATION_CASE_LABEL, type HarnessTarget } from '../../suites/harness/index.js';
import { groupProblems, type SuiteSettings } from '../../suites/common/index.js';
import { runConformance, type ConformanceRun } from '../runner/run-conformance.js';
import { limiter } from '../../suites/common/test-support/limiter.js';

const REFERENCE_DRIVER = fileURLToPath(new URL('../../bin/ahp-reference-driver.mjs', import.meta.url));

/** Suite runs at once: each is a vitest run with its own drivers and mocks, on a 2-core machine. */
const PARALLEL_RUNS = 3;
/** A run's whole budget, waiting for a slot included (a loaded machine stretches every run). */
const RUN_TIMEOUT_MS = 900_000;
/** Property runs per property in the twins' runs: a failure shows within a few runs. */
const TWIN_PROPERTY_RUNS = 15;

const SETTINGS: SuiteSettings = { timeoutScale: 1, seed: 20_250_101, runs: 25, protocolVersion: 'draft' };

// The concurrent tests below share PARALLEL_RUNS slots.
const slot = limiter(PARALLEL_RUNS);

async function run(
  target: HarnessTarget,
  include: string[],
  settings: SuiteSettings,
  pattern?: string,
): Promise<ConformanceRun> {
  return (await timed(target, include, settings, pattern)).result;
}

/** The requirement IDs of the failing cases, as the report counts them. */
function failingRequirements(result: ConformanceRun): string[] {
  const ids = result.cases.filter((c) => c.status === 'fail').flatMap((c) => c.requirements);
  return [...new Set(ids)].sort();
}

/** The selection of a twin judged on the whole suite: nothing of its defect may fan out. */
const WHOLE_SUITE = 'suites/harness/**/*.conformance.ts';

/**
 * How much longer than the reference's whole-suite run a twin's may take: one defect must not make
 * cases wait out deadlines for deliveries that can no longer match (issue 21's bound: twice the
 * clean run plus 30 s, both measured in this self-test, under the same load).
 */
function twinRunBoundMs(referenceMs: number): number {
  return 2 * referenceMs + 30_000;
}

/** Most problems a twin's run may come to: one defect, or two where it truly breaks two rules. */
const MAX_TWIN_PROBLEMS = 2;

/**
 * The problems of a run, and the failing cases whose findings do not all cite a sentence of the
 * draft (a failure outside the kit's rules would be grouped by its case's requirement instead).
 */
function problemsOf(result: ConformanceRun) {
  const failing = result.cases.filter((c) => c.status === 'fail');
  const problems = groupProblems(result.cases);
  return {
    problems: problems.map((p) => `${p.key} (${p.requirement}): ${p.cases.length} case(s)`),
    requirements: [...new Set(problems.map((p) => p.requirement))],
    explained: problems.reduce((n, p) => n + p.failing, 0),
    failing: failing.length,
    withoutBasis: failing
      .filter((c) => !c.findings || c.findings.length === 0 || c.findings.some((f) => f.basis.anchor === ''))
      .map((c) => c.name),
  };
}

/** The failing cases with their first error line, for a readable assertion diff. */
function failures(result: ConformanceRun): string[] {
  return result.cases
    .filter((c) => c.status === 'fail')
    .map((c) => `${c.name}: ${(c.errors[0] ?? '').split('\n')[0] ?? ''}`);
}

const env = Object.fromEntries(
  Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
);
let twinCommand: string[] = [];
let stdioOnlyCommand: string[] = [];

beforeAll(async () => {
  [twinCommand, stdioOnlyCommand] = await Promise.all([bundleTwins(), bundleStdioOnlyDriver()]);
});
afterAll(() => {
  for (const bundle of [twinCommand[1], stdioOnlyCommand[1]]) {
    if (bundle !== undefined) rmSync(bundle, { force: true });
  }
});

/**
 * Cases the reference harness cannot serve because of what it rightly advertises, with the reason
 * the case gives; a twin proves each check (catalogue.ts).
 */
const REFERENCE_UNTESTABLE: Readonly<Record<string, string>> = {
  // Proved by edit-operation-unchecked, which advertises replace only and still merges.
  [`AHP-EDIT-001/${OPERATION_CASE_LABEL}`]:
    'the harness advertises both replace and merge for the tool input, so no operation lies outside its authority',
};

/** The wall time of the reference's whole-suite run, once it ended. */
let referenceRunMs: (ms: number) => void = () => undefined;
const referenceRun = new Promise<number>((resolve) => (referenceRunMs = resolve));

/** Times `work` from when it gets a slot (time spent waiting for one is no part of the run). */
async function timed(
  target: HarnessTarget,
  include: string[],
  settings: SuiteSettings,
  pattern?: string,
): Promise<{ result: ConformanceRun; ms: number }> {
  return slot(async () => {
    const started = performance.now();
    const result = await runConformance({
      include,
      provide: { ahpHarnessTarget: target, ahpSettings: settings },
      ...(pattern === undefined ? {} : { testNamePattern: pattern }),
    });
    return { result, ms: performance.now() - started };
  });
}

/** The reference's whole-suite entry: the twins' whole-suite runs are bounded by its time. */
const REFERENCE_ENTRY = 'the reference harness passes the whole harness suite with an empty baseline';

describe.concurrent('harness suite self-test', () => {
  it(
    REFERENCE_ENTRY,
    async () => {
      const { result, ms } = await timed(
        { kind: 'driver', command: [process.execPath, REFERENCE_DRIVER], label: 'reference', env },
        [WHOLE_SUITE],
        SETTINGS,
      );
      referenceRunMs(ms);
      expect(result.runErrors).toEqual([]);
      expect(failures(result)).toEqual([]);
      expect(result.cases.filter((c) => c.status === 'blocked').map((c) => c.name)).toEqual([]);
      expect(result.cases.filter((c) => c.status === 'pass').length).toBeGreaterThan(100);
      // The reference announces every feature: nothing may be left untested but what its
      // advertisement rules out by design (REFERENCE_UNTESTABLE, each with its reason).
      expect(result.cases.filter((c) => c.status === 'untested').map((c) => [c.name, c.note ?? ''])).toEqual(
        Object.entries(REFERENCE_UNTESTABLE),
      );
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'a driver declaring only stdio and refusing configure after close passes, every HTTP case untested',
    async () => {
      const result = await run(
        { kind: 'driver', command: stdioOnlyCommand, label: 'stdio-only', env },
        ['suites/harness/**/*.conformance.ts'],
        SETTINGS,
      );
      expect(result.runErrors).toEqual([]);
      expect(result.stopped).toBeUndefined();
      expect(failures(result)).toEqual([]);
      expect(result.cases.filter((c) => c.status === 'pass').length).toBeGreaterThan(100);
      const httpOnly = result.cases.filter(
        (c) => c.transports.length > 0 && c.transports.every((t) => t === 'http'),
      );
      expect(httpOnly.length).toBeGreaterThan(20);
      // Each with its reason: the undeclared binding, or (in-process cases) the library they need.
      const judged = httpOnly.filter(
        (c) =>
          c.status !== 'untested' ||
          !(c.file.includes('/in-process/') ? (c.note ?? '') !== '' : /http binding/.test(c.note ?? '')),
      );
      expect(judged.map((c) => `${c.name}: ${c.status} ${c.note ?? ''}`)).toEqual([]);
      // Cases that only configure run over any announced transport: judged here, not left untested
      // (in-process cases need the library, which this driver does not lend).
      const anyTransport = result.cases.filter(
        (c) =>
          /^(AHP-FAIL-002|AHPX-DL-003)\/registration\/|^AHP-REG-00[12]\//.test(c.name) &&
          !c.file.includes('/in-process/'),
      );
      expect(anyTransport.length).toBeGreaterThanOrEqual(16);
      expect(anyTransport.filter((c) => c.status !== 'pass').map((c) => `${c.name}: ${c.status}`)).toEqual(
        [],
      );
      // The shutdown cases close the harness; the driver refuses the configure after that, and the
      // suite carries on with a fresh driver instead of failing the case.
      const shut = result.cases.filter((c) => c.name.startsWith('AHPX-SHUT-00') && c.status === 'pass');
      expect(shut.length).toBeGreaterThan(3);
      expect(shut.some((c) => JSON.stringify(c.evidence ?? {}).includes('freshDriver'))).toBe(true);
    },
    RUN_TIMEOUT_MS,
  );

  for (const entry of TWIN_CATALOGUE) {
    it(
      `broken twin "${entry.twin}" fails exactly ${entry.breaks.join(', ')}`,
      async ({ task }) => {
        const { result, ms } = await timed(
          { kind: 'driver', command: [...twinCommand, entry.twin], label: entry.twin, env },
          entry.files,
          { ...SETTINGS, runs: TWIN_PROPERTY_RUNS },
          entry.pattern,
        );
        expect(result.runErrors).toEqual([]);
        // A run filtered to this twin (`-t`) has no reference run to compare with: it must not wait for one.
        const referenceRuns = task.suite?.tasks.some((t) => t.name === REFERENCE_ENTRY && t.mode === 'run');
        const wholeSuite = entry.files.length === 1 && entry.files[0] === WHOLE_SUITE;
        if (wholeSuite && entry.pattern === undefined && referenceRuns === true) {
          const bound = twinRunBoundMs(await referenceRun);
          expect(Math.round(ms), `the whole-suite run may take ${Math.round(bound)} ms`).toBeLessThanOrEqual(
            bound,
          );
        }
        expect(result.cases.some((c) => c.status === 'pass' || c.status === 'fail')).toBe(true);
        expect({ failing: failingRequirements(result), cases: failures(result) }).toMatchObject({
          failing: [...entry.breaks].sort(),
        });
        const grouped = problemsOf(result);
        expect(grouped.withoutBasis).toEqual([]);
        expect(grouped.problems.length, grouped.problems.join('\n')).toBeLessThanOrEqual(MAX_TWIN_PROBLEMS);
        expect(grouped.requirements.filter((id) => !entry.breaks.includes(id))).toEqual([]);
        expect(grouped.explained).toBe(grouped.failing);
      },
      RUN_TIMEOUT_MS,
    );
  }
});
