// Stability of the harness suite's self-test on broken twins: runs every twin of
// fixtures/harnesses/catalogue.ts on its selection N times while K busy loops load the cores, and
// reports per twin how often it was caught (its run failed exactly the requirement IDs it breaks,
// as cli/self-test/harness.test.ts requires). Exits 1 unless every twin was caught every time.
// Usage: npx tsx scripts/self-test-stability.ts [--runs N] [--load K] [--twin NAME]...
//   --runs: rounds (default 5); --load: busy loops (default: one per core); --twin: only these.
// SIGINT or SIGTERM stops after the round in progress and reports the rounds done so far.
// A benchmark-like script, not a test: each round takes minutes.
import { rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { runConformance, type ConformanceRun } from '../cli/runner/run-conformance.js';
import { TWIN_CATALOGUE, type TwinEntry } from '../fixtures/harnesses/catalogue.js';
import { bundleTwins } from '../fixtures/harnesses/lib/bundle.js';
import { startBusyLoops } from './lib/busy-load.js';
import { exitWith, isMainModule, stopOnSignal } from './lib/script-main.js';

/** Twin runs at once, as in the self-test. */
const PARALLEL_RUNS = 3;
/** The self-test's settings for twin runs. */
const SETTINGS = { timeoutScale: 1, seed: 20_250_101, runs: 15, protocolVersion: 'draft' };

interface Options {
  runs: number;
  load: number;
  twins: string[];
}

function parseArgs(argv: readonly string[]): Options {
  const options: Options = { runs: 5, load: availableParallelism(), twins: [] };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i];
    const raw = argv[i + 1] ?? '';
    if (key === '--twin' && TWIN_CATALOGUE.some((e) => e.twin === raw)) {
      options.twins.push(raw);
      continue;
    }
    const value = Number(raw);
    if ((key !== '--runs' && key !== '--load') || !Number.isSafeInteger(value) || value < 0) {
      throw new Error(
        `Unknown option or bad value near "${key ?? ''}"; use --runs N, --load K, --twin <a twin of fixtures/harnesses/catalogue.ts>.`,
      );
    }
    if (key === '--runs') options.runs = Math.max(1, value);
    else options.load = value;
  }
  return options;
}

/** How one run of a twin ended: caught, or what it failed instead. */
function outcome(entry: TwinEntry, run: ConformanceRun): string {
  if (run.runErrors.length > 0) return `run error: ${run.runErrors[0]?.split('\n')[0] ?? ''}`;
  const failing = [...new Set(run.cases.filter((c) => c.status === 'fail').flatMap((c) => c.requirements))];
  const expected = [...entry.breaks].sort().join(',');
  if (failing.sort().join(',') === expected) return 'caught';
  const untested = run.cases.filter((c) => c.status === 'untested').length;
  return `failed [${failing.join(', ') || 'nothing'}] instead of [${expected}]${untested ? ` (${untested} untested)` : ''}`;
}

async function inSlots<T>(items: readonly T[], slots: number, work: (item: T) => Promise<void>) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: slots }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

export async function main(argv: readonly string[]): Promise<number> {
  let options: Options;
  try {
    options = parseArgs(argv);
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const entries = TWIN_CATALOGUE.filter((e) => options.twins.length === 0 || options.twins.includes(e.twin));
  const env = Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const command = await bundleTwins();
  const stop = startBusyLoops(options.load);
  const seen = new Map<string, string[]>(entries.map((e) => [e.twin, []]));
  const signal = stopOnSignal('Stopping after the round in progress.');
  try {
    console.log(
      `${options.runs} round(s) of ${entries.length} twin(s) with ${options.load} busy loop(s) on ${availableParallelism()} cores`,
    );
    for (let round = 1; round <= options.runs && !signal.stopped; round++) {
      const started = performance.now();
      await inSlots(entries, PARALLEL_RUNS, async (entry) => {
        const run = await runConformance({
          include: entry.files,
          provide: {
            ahpHarnessTarget: { kind: 'driver', command: [...command, entry.twin], label: entry.twin, env },
            ahpSettings: SETTINGS,
          },
          ...(entry.pattern === undefined ? {} : { testNamePattern: entry.pattern }),
        });
        const result = outcome(entry, run);
        seen.get(entry.twin)?.push(result);
        if (result !== 'caught') console.log(`round ${round}: ${entry.twin} NOT caught: ${result}`);
      });
      const missed = entries.filter((e) => seen.get(e.twin)?.[round - 1] !== 'caught').length;
      console.log(
        `round ${round}: ${entries.length - missed}/${entries.length} caught, ` +
          `${((performance.now() - started) / 1000).toFixed(1)} s, load ${(loadavg()[0] ?? 0).toFixed(2)}`,
      );
    }
  } finally {
    stop();
    signal.release();
    const bundle = command[1];
    if (bundle !== undefined) rmSync(bundle, { force: true });
  }
  let all = true;
  for (const [twin, results] of seen) {
    const caught = results.filter((r) => r === 'caught').length;
    if (caught !== results.length) all = false;
    console.log(`${twin}: caught ${caught}/${results.length}`);
  }
  console.log(all ? 'Every twin was caught in every round.' : 'NOT every twin was caught every time.');
  return all ? 0 : 1;
}

if (isMainModule(import.meta.url)) exitWith(main(process.argv.slice(2)));
