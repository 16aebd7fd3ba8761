// Stability check for the main job: runs the full harness suite N times in a row while K busy
// loops load the cores, then compares every case's verdict across runs. A case whose verdict is
// not the same in every run is flaky; the script exits 1 if any case is flaky or failed (with
// --allow-failures: if any case is flaky, or the runs' exit codes differ).
// Usage: npx tsx scripts/harness-stability.ts [--runs N] [--load K] [--allow-failures]
//          [-- <extra harness options> [-- <driver command>]]
//   --runs: full runs (default 10); --load: busy-loop processes (default: one per core);
//   --allow-failures: for a target that fails some cases on purpose (the minimal example driver:
//   `-- -- node docs/examples/minimal-driver.mjs`): only changes of verdict count.
// SIGINT or SIGTERM stops after the run in progress and judges the runs done so far.
// A benchmark-like script, not a test: it takes minutes.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBusyLoops } from './lib/busy-load.js';
import { exitWith, isMainModule, stopOnSignal } from './lib/script-main.js';

const CLI = fileURLToPath(new URL('../bin/ahp-conformance.mjs', import.meta.url));

interface Options {
  runs: number;
  load: number;
  allowFailures: boolean;
  extra: string[];
}

interface RunOutcome {
  exitCode: number | null;
  wallMs: number;
  /** Case name -> status, from the run's JSON report. */
  verdicts: Map<string, string>;
  /** The first line of each run error the report names (a run error fails the run by itself). */
  runErrors: string[];
}

function parseArgs(argv: readonly string[]): Options {
  const dash = argv.indexOf('--');
  const own = dash === -1 ? argv : argv.slice(0, dash);
  const options: Options = {
    runs: 10,
    load: availableParallelism(),
    allowFailures: false,
    extra: dash === -1 ? [] : argv.slice(dash + 1),
  };
  for (let i = 0; i < own.length; i += 2) {
    const key = own[i];
    if (key === '--allow-failures') {
      options.allowFailures = true;
      i--;
      continue;
    }
    const value = Number(own[i + 1]);
    if ((key !== '--runs' && key !== '--load') || !Number.isSafeInteger(value) || value < 0) {
      throw new Error(
        `Unknown option or bad value near "${key ?? ''}"; use --runs N, --load K, --allow-failures, then -- <harness options>.`,
      );
    }
    if (key === '--runs') options.runs = Math.max(1, value);
    else options.load = value;
  }
  return options;
}

function runOnce(outputDir: string, extra: readonly string[]): Promise<RunOutcome> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [CLI, 'harness', '--reporter', 'json', '--output-dir', outputDir, ...extra],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      const verdicts = new Map<string, string>();
      const runErrors: string[] = [];
      try {
        const report = JSON.parse(readFileSync(join(outputDir, 'report.json'), 'utf8')) as {
          requirements: Array<{ cases: Array<{ name: string; status: string }> }>;
          runErrors?: string[];
        };
        for (const error of report.runErrors ?? []) runErrors.push(error.split('\n')[0] ?? '');
        for (const requirement of report.requirements)
          for (const c of requirement.cases) verdicts.set(c.name, c.status);
      } catch {
        // No report: the run is judged by its exit code alone.
      }
      resolve({ exitCode: code, wallMs: performance.now() - started, verdicts, runErrors });
    });
  });
}

/** How many cases of a run ended in each status, e.g. "68 pass, 285 untested, 1 flaky". */
function statusCounts(outcome: RunOutcome): string {
  const counts = new Map<string, number>();
  for (const status of outcome.verdicts.values()) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${n} ${status}`).join(', ') || 'no report';
}

/** The cases that make a run exit non-zero (anything but pass, untested, skipped), by name. */
function notableCases(outcome: RunOutcome): string[] {
  const quiet = new Set(['pass', 'untested', 'skipped']);
  return [...outcome.verdicts]
    .filter(([, status]) => !quiet.has(status))
    .map(([name, status]) => `${status}: ${name}`);
}

/** Case names whose verdict differs between runs, or that are missing from some run. */
function unstableCases(runs: readonly RunOutcome[]): string[] {
  const names = new Set(runs.flatMap((r) => [...r.verdicts.keys()]));
  return [...names].filter((name) => new Set(runs.map((r) => r.verdicts.get(name) ?? 'missing')).size > 1);
}

export async function main(argv: readonly string[]): Promise<number> {
  let options: Options;
  try {
    options = parseArgs(argv);
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const dir = mkdtempSync(join(tmpdir(), 'ahp-stability-'));
  const stopLoad = startBusyLoops(options.load);
  const outcomes: RunOutcome[] = [];
  const signal = stopOnSignal('Stopping after the run in progress.');
  try {
    console.log(
      `${options.runs} full runs with ${options.load} busy loop(s) on ${availableParallelism()} cores`,
    );
    for (let i = 0; i < options.runs && !signal.stopped; i++) {
      const outcome = await runOnce(join(dir, `run-${i + 1}`), options.extra);
      outcomes.push(outcome);
      console.log(
        `run ${i + 1}: exit ${outcome.exitCode}, ${outcome.verdicts.size} cases, ${statusCounts(outcome)}, ` +
          `${(outcome.wallMs / 1000).toFixed(1)} s, load ${(loadavg()[0] ?? 0).toFixed(2)}`,
      );
      for (const line of notableCases(outcome)) console.log(`  ${line}`);
    }
  } finally {
    stopLoad();
    signal.release();
    rmSync(dir, { recursive: true, force: true });
  }
  const unstable = unstableCases(outcomes);
  const exits = new Set(outcomes.map((o) => o.exitCode));
  for (const name of unstable) {
    console.log(`FLAKY ${name}: ${outcomes.map((o) => o.verdicts.get(name) ?? 'missing').join(', ')}`);
  }
  const stable = unstable.length === 0 && exits.size === 1 && (options.allowFailures || exits.has(0));
  console.log(
    stable
      ? `Stable: every case had the same verdict in all ${outcomes.length} run(s), and every run exited ${[...exits].join('')}.`
      : 'NOT stable.',
  );
  return stable ? 0 : 1;
}

if (isMainModule(import.meta.url)) exitWith(main(process.argv.slice(2)));
