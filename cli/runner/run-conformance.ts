import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { BaseSequencer, startVitest } from 'vitest/node';
import type { TestCase, TestSpecification, Vitest } from 'vitest/node';
import {
  BLOCKED_PREFIX,
  MAX_CONCURRENT_CASES,
  TARGET_STOPPED_PREFIX,
  UNTESTED_PREFIX,
  type CaseMeta,
  type TargetStopped,
} from '../../suites/common/index.js';
import { NOT_RUN_AFTER_BAIL, type CaseResult } from './case-result.js';
import { descendantsOf, reapProcesses, type ProcessId } from './descendants.js';
import { withSignalsOwned } from './signal-ownership.js';

/** The package root: suites ship inside the package and are found relative to it. */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ConformanceRunOptions {
  /** Globs of `*.conformance.ts` files, relative to the package root. */
  include: string[];
  /** Values handed to the suites through vitest's `provide` / `inject`. */
  provide: Record<string, unknown>;
  /** A regex source matched against full case names (selection); all cases when absent. */
  testNamePattern?: string;
  /** Called as each case finishes, for progress. */
  onCase?: (result: CaseResult) => void;
  /** Called once the suite files are known, with their count. */
  onFilesCollected?: (count: number) => void;
  /** Called as each suite file is collected: how many of how many, and the cases declared so far. */
  onCollected?: (files: number, collected: number, cases: number) => void;
  /** Max parallel suite files (default: vitest's choice). */
  maxWorkers?: number;
  /**
   * Aborted to interrupt the run (SIGINT/SIGTERM): running cases are stopped where they are,
   * every process the run started is reaped, and the run returns what finished, `interrupted`.
   */
  signal?: AbortSignal;
  /** `--bail`: the run stops at the first case this says yes to; the cases not reached are not run. */
  bailOn?: (result: CaseResult) => boolean;
}

export interface ConformanceRun {
  cases: CaseResult[];
  /** Errors outside any case (a crash in a suite file): they make the run fail. */
  runErrors: string[];
  /**
   * Set when the target stopped being usable during the run (its driver exited or stopped
   * answering): the run was cancelled there; cases judged before keep their verdicts.
   */
  stopped?: TargetStopped;
  /** Set when `signal` interrupted the run: cases that had not finished are reported not run. */
  interrupted?: true;
  /** Set when `bailOn` stopped the run: the case it stopped at. */
  bailedAt?: string;
}

/** The note of a case the run did not reach because the target stopped. */
export const NOT_RUN_AFTER_STOP = 'not run: the run stopped because the target stopped being usable';

/** The note of a case that had not finished when the run was interrupted. */
export const NOT_RUN_INTERRUPTED = 'not run: the run was interrupted';

/** After SIGTERM, how long what the run started gets before SIGKILL (a driver reaps its backends then). */
export const REAP_GRACE_MS = 3_000;

function stripPrefix(note: string): string {
  for (const prefix of [UNTESTED_PREFIX, BLOCKED_PREFIX]) {
    if (note.startsWith(prefix)) return note.slice(prefix.length);
  }
  return note;
}

function toResult(testCase: TestCase): CaseResult {
  const meta: CaseMeta | undefined = testCase.meta().ahp;
  const result = testCase.result();
  const diagnostic = testCase.diagnostic();
  const untested =
    result.state === 'skipped' && (meta?.untested !== undefined || result.note?.startsWith(UNTESTED_PREFIX));
  const blocked = result.state === 'skipped' && meta?.blocked !== undefined;
  const status =
    result.state === 'passed'
      ? 'pass'
      : result.state === 'failed'
        ? 'fail'
        : blocked
          ? 'blocked'
          : untested
            ? 'untested'
            : 'skipped';
  const skipNote = result.state === 'skipped' ? result.note : undefined;
  const note =
    meta?.untested ??
    meta?.blocked?.message ??
    (meta?.targetStopped ? `${TARGET_STOPPED_PREFIX}${meta.targetStopped.message}` : skipNote);
  const diagnostics = result.state === 'failed' ? meta?.diagnostics : undefined;
  const errors =
    result.state === 'failed'
      ? result.errors.map((e) => stripVTControlCharacters(e.message ?? String(e)))
      : [];
  return {
    name: testCase.fullName,
    file: relative(PACKAGE_ROOT, testCase.module.moduleId),
    requirements: meta?.requirements ?? [],
    level: meta?.level ?? 'MUST',
    transports: meta?.transports ?? [],
    profiles: meta?.profiles ?? [],
    status,
    durationMs: Math.round(diagnostic?.duration ?? 0),
    errors,
    ...(note !== undefined ? { note: stripPrefix(note) } : {}),
    ...(status === 'pass' && meta?.untestedRequirements !== undefined
      ? { untestedRequirements: meta.untestedRequirements }
      : {}),
    ...(meta?.evidence !== undefined ? { evidence: meta.evidence } : {}),
    ...(result.state === 'failed' && meta?.findings !== undefined ? { findings: meta.findings } : {}),
    ...(blocked && meta?.blocked !== undefined ? { blockedBy: meta.blocked } : {}),
    ...(diagnostics?.stderrTail && diagnostics.stderrTail.length > 0
      ? { stderrTail: diagnostics.stderrTail }
      : {}),
    ...(diagnostics?.frames && diagnostics.frames.length > 0 ? { frames: diagnostics.frames } : {}),
    ...(diagnostics?.framesTotal !== undefined ? { framesTotal: diagnostics.framesTotal } : {}),
  };
}

/**
 * Longest file first, by the duration vitest cached for each file's last full run; a file it has
 * no duration for (new, renamed) before all others, since it may be long. Files run in parallel
 * and the cases of a file in order, so the longest files decide when a run ends: started last,
 * one runs alone while the other workers idle. vitest's own order puts files that failed last
 * time first and files without a duration by size, which started a new 14 s file last.
 */
export class LongestFirstSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const duration = (spec: TestSpecification) =>
      this.ctx.cache.getFileTestResults(`${spec.project.name}:${relative(root, spec.moduleId)}`)?.duration ??
      Number.POSITIVE_INFINITY;
    return Promise.resolve(sortLongestFirst(files, duration));
  }
}

/** `files` by `duration` descending (unknown = Infinity first), ties by module id, for a stable order. */
export function sortLongestFirst<T extends { moduleId: string }>(
  files: readonly T[],
  duration: (file: T) => number,
): T[] {
  return files
    .map((file) => ({ file, ms: duration(file) }))
    .sort((a, b) => (a.ms === b.ms ? (a.file.moduleId < b.file.moduleId ? -1 : 1) : a.ms > b.ms ? -1 : 1))
    .map(({ file }) => file);
}

/**
 * Stops a run now: a first cancel lets running cases finish, a second one (vitest's "force")
 * stops the workers where they are. A stopped target or an interrupt must not wait out the cases
 * still running, each of which may be waiting out a call timeout of its own.
 */
function stopNow(vitest: Vitest, reason: 'test-failure' | 'keyboard-input'): void {
  void vitest.cancelCurrentRun(reason).catch(() => undefined);
  void vitest.cancelCurrentRun(reason).catch(() => undefined);
}

/** Runs conformance files through vitest's Node API and returns one result per case. */
export async function runConformance(options: ConformanceRunOptions): Promise<ConformanceRun> {
  const seen = new Map<string, CaseResult>();
  const previousExitCode = process.exitCode;
  let vitestRef: Vitest | undefined;
  let stopped: TargetStopped | undefined;
  let interrupted = options.signal?.aborted === true;
  let bailedAt: string | undefined;
  let files = -1;
  let collectedFiles = 0;
  let declared = 0;
  if (interrupted) return { cases: [], runErrors: [], interrupted: true };
  /** Children this process had before the run: not the run's to reap. */
  const before = new Set(descendantsOf().map((p) => `${p.pid}@${p.started}`));
  const ours = (list: ProcessId[]) => list.filter((p) => !before.has(`${p.pid}@${p.started}`));
  /** What the run had started when it was interrupted: reaped once vitest is closed. */
  let started: ProcessId[] = [];
  const onAbort = (): void => {
    interrupted = true;
    started = ours(descendantsOf());
    if (vitestRef) stopNow(vitestRef, 'keyboard-input');
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const vitest = await withSignalsOwned(() =>
    startVitest(
      'test',
      [],
      {
        run: true,
        watch: false,
        config: false,
        root: PACKAGE_ROOT,
        include: options.include,
        provide: options.provide,
        // A worker runs file after file in the same process: a fresh process per file cost a Node
        // boot, the kit's and the mock's module graph, and an esbuild build of the stdio mock entry,
        // each time. The suites keep no state at module level, and a fixture per file holds the
        // driver and the mocks, so files do not see each other.
        isolate: false,
        sequence: { sequencer: LongestFirstSequencer },
        // Only cases a file declares concurrent run together, one per lane of its fixture.
        maxConcurrency: MAX_CONCURRENT_CASES,
        // A run of some cases only would record short durations for whole files and so misorder the
        // next full run: only full runs read and write the durations.
        ...(options.testNamePattern !== undefined
          ? { testNamePattern: options.testNamePattern, cache: false }
          : {}),
        ...(options.maxWorkers !== undefined ? { maxWorkers: options.maxWorkers } : {}),
        reporters: [
          {
            onInit(ctx) {
              vitestRef = ctx;
              if (interrupted) stopNow(ctx, 'keyboard-input');
            },
            onTestRunStart(specifications) {
              files = specifications.length;
              options.onFilesCollected?.(specifications.length);
            },
            onTestModuleCollected(testModule) {
              collectedFiles += 1;
              declared += [...testModule.children.allTests()].length;
              options.onCollected?.(files, collectedFiles, declared);
            },
            onTestCaseResult(testCase) {
              const result = toResult(testCase);
              // A case cut short by the interrupt or by --bail has no verdict: it is reported not run.
              if ((interrupted || bailedAt !== undefined) && result.status !== 'pass') return;
              seen.set(testCase.id, result);
              options.onCase?.(result);
              if (bailedAt === undefined && options.bailOn?.(result) === true) {
                bailedAt = result.name;
                if (vitestRef) stopNow(vitestRef, 'test-failure');
              }
              const stop = testCase.meta().ahp?.targetStopped;
              if (stop !== undefined && stopped === undefined) {
                // One broken target is reported once: the cases still queued would only repeat it.
                stopped = stop;
                if (vitestRef) stopNow(vitestRef, 'test-failure');
              }
            },
          },
        ],
      },
      {},
      {},
    ),
  );
  options.signal?.removeEventListener('abort', onAbort);
  const cases: CaseResult[] = [];
  for (const module of vitest.state.getTestModules()) {
    for (const testCase of module.children.allTests()) {
      const result = seen.get(testCase.id);
      if (result) cases.push(result);
      else if (interrupted) cases.push(notRun(toResult(testCase), NOT_RUN_INTERRUPTED));
      else {
        const unreached = toResult(testCase);
        const notReached = unreached.status === 'skipped' && unreached.note === undefined;
        if (notReached && stopped !== undefined) cases.push({ ...unreached, note: NOT_RUN_AFTER_STOP });
        // A case --bail cut short (any status but pass) or never reached is not run, whatever it showed.
        else if (bailedAt !== undefined) cases.push(notRun(unreached, NOT_RUN_AFTER_BAIL));
        else cases.push(unreached);
      }
    }
  }
  // An interrupted run's workers were stopped mid-file: what that leaves (cancelled files, a
  // teardown cut short) is the interrupt, not an error of the suite.
  const runErrors = interrupted
    ? []
    : vitest.state.getUnhandledErrors().map((e) => {
        const err = e as { message?: string; stack?: string };
        return stripVTControlCharacters(err.message ?? String(e));
      });
  if (!interrupted) {
    for (const module of vitest.state.getTestModules()) {
      for (const error of module.errors()) runErrors.push(`${module.moduleId}: ${error.message ?? ''}`);
    }
  }
  await vitest.close();
  if (interrupted) await reapProcesses([...started, ...ours(descendantsOf())], REAP_GRACE_MS);
  // startVitest sets process.exitCode itself; the CLI decides the exit code from the results.
  process.exitCode = previousExitCode;
  return {
    cases,
    runErrors,
    ...(stopped !== undefined ? { stopped } : {}),
    ...(interrupted ? { interrupted: true as const } : {}),
    ...(bailedAt !== undefined ? { bailedAt } : {}),
  };
}

/** A case the run did not get to judge, as the report shows it. */
function notRun(result: CaseResult, note: string): CaseResult {
  return { ...result, status: 'skipped', errors: [], note };
}
