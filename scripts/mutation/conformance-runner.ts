/**
 * A Stryker test runner whose tests are the conformance suite's cases, grouped into units (one per
 * requirement ID, units.ts). It runs in Stryker's sandbox, where the files of the target are
 * instrumented: every run is the package's own CLI, as a user runs it, against the mutated code.
 *
 * - init: builds the sandbox's bundles (the reference driver is bundled from the instrumented
 *   sources, so all mutants are in one build and a run only switches one on).
 * - dryRun: each unit once with no mutant active and the coverage hook preloaded; the hits its
 *   processes wrote are the unit's coverage. A unit that fails unmutated fails the dry run.
 * - mutantRun: the units that reached the mutant, with `__STRYKER_ACTIVE_MUTANT__` set; the first
 *   failure on the console kills the mutant (the run is interrupted there, unless bail is off).
 *   The likeliest killers run first, on their own (units.ts killerOrder): most mutants die there.
 *   A mutant mutation/equivalent.json lists is not run unless the run checks the list
 *   (--run-equivalents): no case can detect it, so its runs would be a full suite's time for
 *   nothing. It is reported as survived, which the summary files under equivalent.
 *
 * Runs are `--strict`: a SHOULD failure is a failure the suite reports, so it kills too.
 */
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { execa } from 'execa';
import { commonTokens, declareClassPlugin, PluginKind, tokens } from '@stryker-mutator/api/plugin';
import type { Logger } from '@stryker-mutator/api/logging';
import {
  DryRunStatus,
  MutantRunStatus,
  TestStatus,
  type DryRunResult,
  type MutantRunOptions,
  type MutantRunResult,
  type TestRunner,
  type TestRunnerCapabilities,
} from '@stryker-mutator/api/test-runner';
import {
  byKey,
  equivalentsPath,
  keyOf,
  lookUp,
  readEquivalents,
  SKIP_EQUIVALENTS_ENV,
  type EquivalentMutant,
} from './equivalents.js';
import { TARGET_ENV, targetNamed, type ListedCase, type MutationTarget } from './targets.js';
import { judgingDigest } from './judging-digest.js';
import {
  failedCaseOf,
  killerOrder,
  onlyArgs,
  unitOf,
  unitOfTestId,
  unitsOf,
  unitTestIds,
  type KillRecord,
} from './units.js';

const ACTIVE_MUTANT_ENV = '__STRYKER_ACTIVE_MUTANT__';
const COVERAGE_DIR_ENV = 'AHP_MUTATION_COVERAGE_DIR';

interface CliOutcome {
  exitCode: number | undefined;
  /** The first case the console reported as a MUST failure. */
  firstFailure?: string;
  timedOut: boolean;
  /** The console's last lines, for a failure message. */
  tail: string[];
}

const TAIL_LINES = 12;
/** How many of a mutant's units run first, on their own, before the rest. */
const FIRST_UNITS = 3;

export class ConformanceTestRunner implements TestRunner {
  static inject = tokens(commonTokens.logger);
  private readonly target: MutationTarget;
  private readonly root = process.cwd();
  private units: string[] = [];
  /** Each unit's test id for Stryker (`<unit>#<digest>`). */
  private testIds = new Map<string, string>();
  /** Shared by the runner processes of one run (they all work in the same sandbox). */
  private readonly state = join(process.cwd(), '.mutation-state');
  /** The listed equivalents, when they are not to be run, and the project root they are relative to. */
  private readonly skipped: ReadonlyMap<string, EquivalentMutant>;
  private readonly projectRoot: string | undefined;
  private reached: Record<string, number> | undefined;

  constructor(private readonly log: Logger) {
    this.target = targetNamed(process.env[TARGET_ENV] ?? 'harness');
    this.projectRoot = process.env[SKIP_EQUIVALENTS_ENV];
    this.skipped =
      this.projectRoot === undefined ? new Map() : byKey(readEquivalents(equivalentsPath(this.projectRoot)));
  }

  capabilities(): TestRunnerCapabilities {
    // Every run is a new CLI process: nothing of a mutant outlives its run.
    return { reloadEnvironment: true };
  }

  async init(): Promise<void> {
    const build = await execa(
      'node',
      [join(this.root, 'node_modules/tsx/dist/cli.mjs'), 'scripts/build.ts'],
      {
        cwd: this.root,
        all: true,
        reject: false,
      },
    );
    if (build.exitCode !== 0) throw new Error(`building the sandbox's bundles failed:\n${build.all}`);
    const listed = await execa('node', ['bin/ahp-conformance.mjs', 'list', '--json'], { cwd: this.root });
    const cases = (JSON.parse(listed.stdout) as { cases: ListedCase[] }).cases;
    const names = cases.filter((c) => this.target.judges(c)).map((c) => c.name);
    this.units = unitsOf(names);
    this.testIds = unitTestIds(names, judgingDigest(this.root, this.target.judging));
  }

  async dryRun(): Promise<DryRunResult> {
    const hook = join(this.root, 'scripts/mutation/coverage-hook.mjs');
    const tests = [];
    const perTest: Record<string, Record<string, number>> = {};
    for (const unit of this.units) {
      const dir = mkdtempSync(join(tmpdir(), 'ahp-mutation-coverage-'));
      const started = Date.now();
      const outcome = await this.runCli([unit], {
        NODE_OPTIONS: `--import=${hook}`,
        [COVERAGE_DIR_ENV]: dir,
      });
      const timeSpentMs = Date.now() - started;
      const id = this.testIds.get(unit) ?? unit;
      const hits = hitsIn(dir);
      perTest[id] = hits;
      rmSync(dir, { recursive: true, force: true });
      if (outcome.exitCode !== 0) {
        return {
          status: DryRunStatus.Error,
          errorMessage: `the unmutated ${unit} cases did not pass (exit code ${String(outcome.exitCode)}):\n${outcome.tail.join('\n')}`,
        };
      }
      this.log.info(`dry run: ${unit} reached ${Object.keys(hits).length} mutant(s) in ${timeSpentMs} ms`);
      tests.push({ id, name: id, timeSpentMs, status: TestStatus.Success as const });
    }
    mkdirSync(this.state, { recursive: true });
    const reach = Object.fromEntries(
      Object.entries(perTest).map(([id, hits]) => [unitOfTestId(id), Object.keys(hits).length]),
    );
    writeFileSync(join(this.state, 'reach.json'), JSON.stringify(reach));
    writeFileSync(join(this.state, 'kills.jsonl'), '');
    return { status: DryRunStatus.Complete, tests, mutantCoverage: { static: {}, perTest } };
  }

  async mutantRun(options: MutantRunOptions): Promise<MutantRunResult> {
    const { fileName: file, location, mutatorName, replacement } = options.activeMutant;
    // A runner sees Stryker's own 0-based positions; reports (and so mutation/equivalent.json) are 1-based.
    const name = {
      file: relative(this.projectRoot ?? this.root, file),
      start: { line: location.start.line + 1, column: location.start.column + 1 },
      end: { line: location.end.line + 1, column: location.end.column + 1 },
      mutator: mutatorName,
      replacement,
    };
    if (lookUp(this.skipped, name) !== undefined) {
      this.log.debug(`listed as equivalent, not run: ${keyOf(name)}`);
      return { status: MutantRunStatus.Survived, nrOfTests: 0 };
    }
    const filter = options.testFilter?.map(unitOfTestId);
    const units = killerOrder(filter ?? this.units, file, this.kills(), this.reach());
    const env = { [ACTIVE_MUTANT_ENV]: options.activeMutant.id };
    const deadline = Date.now() + options.timeout;
    const batches = options.disableBail ? [units] : [units.slice(0, FIRST_UNITS), units.slice(FIRST_UNITS)];
    for (const batch of batches.filter((b) => b.length > 0)) {
      const outcome = await this.runCli(batch, env, {
        bail: !options.disableBail,
        timeoutMs: Math.max(1, deadline - Date.now()),
      });
      if (outcome.timedOut && outcome.firstFailure === undefined) {
        return { status: MutantRunStatus.Timeout, reason: `no verdict within ${options.timeout} ms` };
      }
      if (outcome.exitCode === 2) {
        return { status: MutantRunStatus.Error, errorMessage: `usage error:\n${outcome.tail.join('\n')}` };
      }
      if (outcome.exitCode === 0) continue;
      // Exit code 1 (a case failed) or 3 (the target stopped being usable), or interrupted at a failure.
      const killer = outcome.firstFailure === undefined ? batch[0]! : unitOf(outcome.firstFailure);
      appendFileSync(
        join(this.state, 'kills.jsonl'),
        `${JSON.stringify({ file, unit: killer } satisfies KillRecord)}\n`,
      );
      return {
        status: MutantRunStatus.Killed,
        killedBy: [this.testIds.get(killer) ?? killer],
        failureMessage: outcome.firstFailure ?? outcome.tail.join('\n'),
        nrOfTests: units.length,
      };
    }
    return { status: MutantRunStatus.Survived, nrOfTests: units.length };
  }

  /** The kills of this run so far, by every runner process. */
  private kills(): KillRecord[] {
    const path = join(this.state, 'kills.jsonl');
    if (!existsSync(path)) return [];
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as KillRecord);
  }

  /** How many mutants each unit reached in the dry run (written once, so read once per process). */
  private reach(): Record<string, number> {
    if (this.reached !== undefined) return this.reached;
    const path = join(this.state, 'reach.json');
    if (!existsSync(path)) return {};
    return (this.reached = JSON.parse(readFileSync(path, 'utf8')) as Record<string, number>);
  }

  /** One CLI run of `units`: its exit code and first failure; with bail, it ends at that failure. */
  private async runCli(
    units: readonly string[],
    env: Record<string, string>,
    { bail = false, timeoutMs }: { bail?: boolean; timeoutMs?: number } = {},
  ): Promise<CliOutcome> {
    const outputDir = mkdtempSync(join(tmpdir(), 'ahp-mutation-report-'));
    const skip = (this.target.skip?.patterns ?? []).flatMap((pattern) => ['--skip', pattern]);
    const call = this.target.command(
      [...onlyArgs(units), ...skip, '--strict', '--output-dir', outputDir],
      env,
    );
    const child = execa('node', ['bin/ahp-conformance.mjs', ...call.args], {
      cwd: this.root,
      env: { ...call.env, CI: 'true' },
      reject: false,
      all: true,
      forceKillAfterDelay: 5_000,
      // Its own process group: what a mutant leaves running (a driver that ignores SIGTERM, say) is
      // killed with the group when the run ends, instead of loading the machine for later mutants.
      detached: true,
    });
    if (child.pid !== undefined) liveGroups.add(child.pid);
    const outcome: CliOutcome = { exitCode: undefined, timedOut: false, tail: [] };
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            outcome.timedOut = true;
            child.kill('SIGINT');
          }, timeoutMs);
    for await (const line of createInterface({ input: child.all! })) {
      outcome.tail = [...outcome.tail.slice(1 - TAIL_LINES), line];
      const failed = failedCaseOf(line);
      if (failed !== undefined && outcome.firstFailure === undefined) {
        outcome.firstFailure = failed;
        // The CLI interrupts like on Ctrl-C: it stops the cases and reaps what it started.
        if (bail) child.kill('SIGINT');
      }
    }
    const result = await child;
    clearTimeout(timer);
    killGroup(child.pid);
    if (child.pid !== undefined) liveGroups.delete(child.pid);
    rmSync(outputDir, { recursive: true, force: true });
    outcome.exitCode = result.exitCode;
    return outcome;
  }
}

/** The process groups of CLI runs in progress: a runner that is stopped (Ctrl-C) takes them along. */
const liveGroups = new Set<number>();
process.once('exit', () => {
  for (const pid of liveGroups) killGroup(pid);
});

/** Kills what is left of a finished run's process group (nothing, when the CLI reaped it all). */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is gone, as it should be.
  }
}

/** The mutant ids the coverage hook's files in `dir` name, as Stryker's coverage data. */
function hitsIn(dir: string): Record<string, number> {
  const hits: Record<string, number> = {};
  for (const file of readdirSync(dir)) {
    for (const id of JSON.parse(readFileSync(join(dir, file), 'utf8')) as string[]) hits[id] = 1;
  }
  return hits;
}

export const conformanceRunnerPlugin = declareClassPlugin(
  PluginKind.TestRunner,
  'ahp-conformance',
  ConformanceTestRunner,
);
