import type { JsonValue } from '../../protocol/json.js';
import type { SuiteSettings, TargetStopped } from '../../suites/common/index.js';
import { applyKnownFailures, toleratedCase, type BaselineSummary } from '../known-failures/apply.js';
import { checkKnownFailuresMatch } from '../known-failures/check.js';
import { optionsForReport, type ResolvedOptions } from '../options/resolve.js';
import { isTimingCase } from '../repeat/repeat.js';
import { buildReport, conformanceExitCode, type Claim, type Report } from '../report/report.js';
import { isMandatory, type CaseResult } from '../runner/case-result.js';
import {
  runConformance,
  type ConformanceRun,
  type ConformanceRunOptions,
} from '../runner/run-conformance.js';
import { collectSources, type CollectedCase } from '../selection/collect.js';
import { namePatternFor, selectCases } from '../selection/select.js';
import type { ShardSpec, ShardUnit } from '../shard/plan.js';
import type { ShardRecord } from '../shard/record.js';
import { planShardRun } from '../shard/shard-run.js';
import { measureMachineScale } from '../runner/machine-scale.js';
import { filesOf, withUnselected } from './unselected.js';
import { repeatTimingCases, rerunFailingTimingCases } from './timing-reruns.js';

/**
 * The `provide` key of the suite settings (suites/harness/kit/provided.ts names it for both
 * suites; that module loads vitest's test API, which the CLI's process does not).
 */
const SETTINGS_KEY = 'ahpSettings';

/** Everything a run needs besides the options: which suite, what it is given, what the report says. */
export interface SuiteRunPlan {
  role: 'harness' | 'backend';
  /** Suite file globs, relative to the package root. */
  include: string[];
  /** Values for the suites (target, settings) through vitest's `provide`. */
  provide: Record<string, unknown>;
  options: ResolvedOptions;
  /** What was tested, secrets redacted. */
  target: JsonValue;
  claim: Claim;
  version: string;
  /** Progress hooks (the console reporter). */
  onCase?: (result: CaseResult) => void;
  onFilesCollected?: (count: number) => void;
  /**
   * What `--shard` moves between shards as a whole (default: a file, whose cases share its
   * driver and mocks).
   */
  shardUnit?: ShardUnit;
  /** Called when the run knows, before it starts, which cases it will judge (a selection, a shard). */
  onPlanned?: (names: readonly string[]) => void;
  /** Called as each suite file is collected: how many of how many, and the cases declared so far. */
  onCollected?: (files: number, collected: number, cases: number) => void;
  /** A step before the cases run ("Collecting the cases ..."); `announce` false: not worth a line of its own. */
  onPhase?: (text: string, announce?: boolean) => void;
  /** Called once a `--shard` run knows its share: its cases and the selection's. */
  onShardPlanned?: (shard: ShardSpec, cases: number, selected: number) => void;
  /** Called before each extra run of `--repeat`, with its number (2..N) and case count. */
  onRepeat?: (run: number, of: number, cases: number) => void;
  /** Called once after `--repeat`, with each repeated case and its verdict over the runs. */
  onRepeated?: (cases: readonly CaseResult[]) => void;
  /** Aborted on SIGINT/SIGTERM: the run stops, and the report holds what finished (`interrupted`). */
  signal?: AbortSignal;
  /** Measures the machine's slowness before timing cases (cli/runner/machine-scale.ts); tests pass a fixed one. */
  measureMachine?: () => Promise<number>;
  /** Wall clock for the report's start and duration; tests pass a fixed one. */
  now?: () => number;
  /** The runner; tests may wrap it. */
  runner?: (options: ConformanceRunOptions) => Promise<ConformanceRun>;
}

/** The report of a run and its exit code (0 or 1; a stopped run is the command's exit 3). */
export interface SuiteRunOutcome {
  report: Report;
  exitCode: 0 | 1;
}

/**
 * Progress sees each case as the report will: a failure the baseline lists is printed as a known
 * failure, not as a failure.
 */
function withBaseline(
  onCase: ((result: CaseResult) => void) | undefined,
  options: ResolvedOptions,
): ((result: CaseResult) => void) | undefined {
  const baseline = options.knownFailures;
  if (!onCase || !baseline) return onCase;
  return (result) => onCase(toleratedCase(result, baseline));
}

/**
 * `--bail`: the first case that fails the run stops it: a MUST failure (a SHOULD one under
 * `--strict`) the baseline does not tolerate.
 */
function bailOn(options: ResolvedOptions): ((result: CaseResult) => boolean) | undefined {
  if (!options.bail) return undefined;
  const baseline = options.knownFailures;
  return (result) => {
    const seen = baseline ? toleratedCase(result, baseline) : result;
    return seen.status === 'fail' && (options.strict || isMandatory(seen.level));
  };
}

/**
 * The values the suites read through `inject('ahpSettings')`. `machineScale`: the machine's
 * measured slowness; waits scale by the larger of it and `--timeout-scale`, the just-late margins
 * by `--timeout-scale` alone.
 */
export function suiteSettings(options: ResolvedOptions, machineScale = 1): SuiteSettings {
  return {
    timeoutScale: Math.max(options.timeoutScale, machineScale),
    precisionScale: options.timeoutScale,
    seed: options.seed,
    runs: options.runs,
    protocolVersion: options.protocolVersion,
  };
}

/** Whether the run holds timing cases: all of a run without a selection may. */
function timingAhead(
  universe: readonly CollectedCase[] | undefined,
  chosen: ReadonlySet<string> | undefined,
): boolean {
  if (!universe || !chosen) return true;
  return universe.some((c) => chosen.has(c.name) && isTimingCase(c));
}

/** The machine's slowness, measured when timing cases are ahead (1 otherwise), and said when it matters. */
async function measureBeforeTiming(plan: SuiteRunPlan, timing: boolean): Promise<number> {
  if (!timing || plan.signal?.aborted === true) return 1;
  plan.onPhase?.('Measuring how responsive the machine is, for the timing cases', false);
  const measured = await (plan.measureMachine ?? measureMachineScale)();
  const scale = plan.options.timeoutScale;
  if (measured > scale) {
    plan.onPhase?.(
      `The machine is busy (it responds ${measured}x slower than a quiet one): waits are scaled by ${measured} instead of --timeout-scale ${scale}.`,
    );
  }
  return measured;
}

/**
 * Runs one suite under the resolved options: selection (`--only`/`--skip`, which first collects
 * the cases without running them so a selector that matches nothing is an error), the run,
 * `--repeat` for the timing cases that reached a verdict, the known-failures baseline, then the
 * report and its exit code.
 */
export async function runSuite(plan: SuiteRunPlan): Promise<SuiteRunOutcome> {
  const now = plan.now ?? Date.now;
  const runner = plan.runner ?? runConformance;
  const started = now();
  const { options } = plan;
  const selecting = options.only.length > 0 || options.skip.length > 0;
  /** The cases the report lists (all collected ones, or a shard's share); undefined: what ran. */
  let universe: CollectedCase[] | undefined;
  /** Every collected case, for the known-failures baseline. */
  let collected: CollectedCase[] | undefined;
  let testNamePattern: string | undefined;
  let chosen: Set<string> | undefined;
  let shard: ShardRecord | undefined;
  /** Selected cases another shard runs: a baseline line matching them is judged by `merge`. */
  let elsewhere: CollectedCase[] = [];
  // A baseline is checked against the collected cases before anything runs.
  if (selecting || options.shard || options.knownFailures) {
    const why = selecting ? '--only/--skip' : options.shard ? '--shard' : '--known-failures';
    plan.onPhase?.(`Collecting the cases to select (${why})`);
    const collection = await collectSources([{ include: plan.include, provide: plan.provide }]);
    if (collection.errors.length > 0) {
      return finish(plan, started, now(), [], collection.errors, undefined);
    }
    collected = collection.cases;
    universe = collected;
    if (options.knownFailures) checkKnownFailuresMatch(options.knownFailures, collected, plan.role);
    let selected = selecting ? selectCases(universe, { only: options.only, skip: options.skip }) : universe;
    if (options.shard) {
      const split = await planShardRun(
        plan.role,
        universe,
        selected,
        options.shard,
        plan.shardUnit ?? 'file',
      );
      plan.onShardPlanned?.(options.shard, split.own.length, selected.length);
      shard = split.record;
      universe = split.reported;
      const own = new Set(split.own.map((c) => c.name));
      elsewhere = selected.filter((c) => !own.has(c.name));
      selected = split.own;
    }
    chosen = new Set(selected.map((c) => c.name));
    plan.onPlanned?.([...chosen]);
    // Whole files run without a pattern, so vitest records their durations for the next run.
    const files = new Set(filesOf(selected));
    const inFiles = collected.filter((c) => files.has(c.file));
    if (selecting || inFiles.length !== selected.length) testNamePattern = namePatternFor([...chosen]);
  }
  const include = universe && chosen ? filesOf(universe.filter((c) => chosen.has(c.name))) : plan.include;
  const machineScale = await measureBeforeTiming(plan, include.length > 0 && timingAhead(universe, chosen));
  const base: ConformanceRunOptions = {
    include: plan.include,
    provide:
      SETTINGS_KEY in plan.provide
        ? { ...plan.provide, [SETTINGS_KEY]: suiteSettings(options, machineScale) }
        : plan.provide,
    ...(plan.signal ? { signal: plan.signal } : {}),
  };
  if (include.length > 0) {
    // The heading follows at once with the file count: this one shows only if the start is slow.
    plan.onPhase?.("Starting the suite's workers", false);
  }
  // A shard may get no case at all (fewer files than shards): it runs nothing.
  const bail = bailOn(options);
  const first =
    include.length === 0
      ? { cases: [], runErrors: [] }
      : await runner({
          ...base,
          include,
          ...(testNamePattern !== undefined ? { testNamePattern } : {}),
          ...(bail !== undefined ? { bailOn: bail } : {}),
          ...(plan.onCase ? { onCase: withBaseline(plan.onCase, options) as (r: CaseResult) => void } : {}),
          ...(plan.onFilesCollected ? { onFilesCollected: plan.onFilesCollected } : {}),
          ...(plan.onCollected ? { onCollected: plan.onCollected } : {}),
        });
  let cases = universe && chosen ? withUnselected(first.cases, universe, chosen) : first.cases;
  const runErrors = [...first.runErrors];
  // A run the target stopped is not run again: the target is gone; nor is an interrupted one.
  const interrupted = (): boolean => first.interrupted === true || plan.signal?.aborted === true;
  if (first.stopped === undefined && !interrupted()) {
    const rerun = {
      runner,
      base,
      options,
      interrupted,
      ...(plan.onPhase ? { onPhase: plan.onPhase } : {}),
      ...(plan.onRepeat ? { onRepeat: plan.onRepeat } : {}),
      ...(plan.onRepeated ? { onRepeated: plan.onRepeated } : {}),
    };
    for (const extraRuns of [repeatTimingCases, rerunFailingTimingCases]) {
      const more = await extraRuns(cases, rerun);
      cases = more.cases;
      runErrors.push(...more.runErrors);
    }
  }
  let baseline: BaselineSummary | undefined;
  if (options.knownFailures) {
    // A shard cannot call a line stale while the line matches cases another shard ran: `merge`
    // sums what each shard found and judges the line over the whole run.
    const applied = applyKnownFailures(cases, options.knownFailures, elsewhere);
    cases = applied.cases;
    baseline = applied.summary;
  }
  const outcome = finish(
    plan,
    started,
    now(),
    cases,
    runErrors,
    baseline,
    shard,
    first.stopped,
    machineScale,
  );
  if (!interrupted()) return outcome;
  // What did not run is no failure: the exit code is the interrupt's (the command's).
  return { report: { ...outcome.report, interrupted: true }, exitCode: 0 };
}

function finish(
  plan: SuiteRunPlan,
  started: number,
  ended: number,
  cases: CaseResult[],
  runErrors: string[],
  baseline: BaselineSummary | undefined,
  shard?: ShardRecord,
  stopped?: TargetStopped,
  machineScale = 1,
): SuiteRunOutcome {
  const { timeoutScale } = plan.options;
  const report = buildReport({
    version: plan.version,
    role: plan.role,
    target: plan.target,
    claim: plan.claim,
    seed: plan.options.seed,
    startedAt: new Date(started).toISOString(),
    durationMs: Math.max(0, Math.round(ended - started)),
    cases,
    runErrors,
    // What the machine measured, and the scale the waits ran at: never below --timeout-scale.
    options: {
      ...(optionsForReport(plan.options) as Record<string, JsonValue>),
      machineScale,
      effectiveTimeoutScale: Math.max(timeoutScale, machineScale),
    },
    ...(baseline ? { baseline } : {}),
    ...(shard ? { shard } : {}),
    ...(stopped ? { stopped } : {}),
  });
  return { report, exitCode: conformanceExitCode(report, plan.options.strict) };
}
