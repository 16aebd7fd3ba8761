// Feeds generated hostile backend byte streams to the reference harness under both failure
// policies and checks every settlement: no crash, no unhandled rejection, never "continue" under
// fail-closed without a no-effect reply, the reply's decision when exactly that reply came first
// and in time, settlement no later than the deadline + 50 ms, and bounded memory.
// Usage: npx tsx scripts/robustness.ts [--streams N] [--seed S] [--from I] [--stdio N] [--http N]
//   --streams: in-process streams (default 100000); --stdio / --http: real-process streams
//   (default 500 / 200); --from: first stream index (replay one with --from I --streams 1).
import { runInProcess, type InProcessReport } from './lib/in-process-run.js';
import { httpAdapter } from './lib/real-http.js';
import { runReal, type RealAdapter, type RealReport } from './lib/real-run.js';
import { stdioAdapter, type RealMargins } from './lib/real-stdio.js';
import { FaultCounter, type Violation } from './lib/run-support.js';
import { consoleIo, exitWith, isMainModule, type ScriptIo } from './lib/script-main.js';

/**
 * The script's strict bound: a call settles no later than its deadline plus this, counted from the
 * first moment the process could act on the deadline (on this shared VM the OS or a GC may hold
 * the whole process for hundreds of ms; the raw figure is printed too).
 */
export const LATE_TOLERANCE_MS = 50;
/** Untimed warm-up streams (negative indices): the first calls compile the validators and are slow. */
export const WARMUP_STREAMS = 200;
/** Streams run at once in-process: enough to overlap the deadline waits, few enough to keep timers prompt. */
export const CONCURRENCY = 3;
/**
 * Memory may grow this much after warm-up before the run calls it a leak. Measured after a forced
 * GC, live heap stays flat within a few MiB; rss moves with the allocator, so its bound is looser.
 */
export const MEMORY = { sampleEvery: 1000, warmupStreams: 5000, heapGrowthMb: 32, rssGrowthMb: 160 };

/** Real-process margins (see RealMargins): a loaded 2-core VM boots a node child in 150-600 ms. */
export const REAL_MARGINS: RealMargins = { spawnMs: 1000, lateGuardMs: 150, scriptSlackMs: 10_000 };
/** Real-process lanes: each is a sequential line of calls with its own children. */
export const REAL_LANES = 4;
/** SIGTERM -> SIGKILL grace for the hostile children (they never ignore SIGTERM). */
export const KILL_GRACE_MS = 2000;

interface Args {
  streams: number;
  seed: number;
  from: number;
  stdio: number;
  http: number;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { streams: 100_000, seed: Date.now() % 2 ** 31, from: 0, stdio: 500, http: 200 };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i]?.replace(/^--/, '') as keyof Args;
    const value = Number(argv[i + 1]);
    if (!(key in args) || !Number.isSafeInteger(value) || value < 0) {
      throw new Error(
        `Unknown option or bad value near "${argv[i] ?? ''}"; see the usage line at the top of scripts/robustness.ts.`,
      );
    }
    args[key] = value;
  }
  return args;
}

function replayCounts(portion: string): string {
  if (portion === 'real-stdio') return '--streams 0 --stdio 1 --http 0';
  if (portion === 'real-http') return '--streams 0 --stdio 0 --http 1';
  return '--streams 1 --stdio 0 --http 0';
}

function printViolation(io: ScriptIo, v: Violation): void {
  io.stderr(`VIOLATION in the ${v.portion} portion, stream ${v.index} (seed ${v.seed}):`);
  for (const p of v.problems) io.stderr(`  - ${p}`);
  if (v.stream) io.stderr(`  stream: ${JSON.stringify(v.stream)}`);
  if (v.requestId) io.stderr(`  request id: ${v.requestId}`);
  if (v.bytesBase64 !== undefined) {
    io.stderr(
      `  bytes (base64, ${Buffer.from(v.bytesBase64, 'base64').length} B): ${v.bytesBase64.length > 4096 ? `${v.bytesBase64.slice(0, 4096)}...` : v.bytesBase64}`,
    );
  }
  io.stderr(
    `  replay: npx tsx scripts/robustness.ts --seed ${v.seed} --from ${v.index} ${replayCounts(v.portion)}`,
  );
}

function summary(io: ScriptIo, name: string, r: InProcessReport): void {
  const perSecond = r.streams / (r.elapsedMs / 1000);
  io.stdout(
    `${name}: ${r.streams} streams in ${(r.elapsedMs / 1000).toFixed(1)} s (${perSecond.toFixed(0)} streams/s)`,
  );
  io.stdout(`  categories: ${JSON.stringify(r.categories)}`);
  io.stdout(
    `  outcomes: ${JSON.stringify(r.outcomes)}; late replies noted: ${r.lateReplies}; deadline passed before sending: ${r.unsent}`,
  );
  io.stdout(
    `  latest settlement: ${r.maxLatenessMs.toFixed(1)} ms after the deadline; from the first moment the process could act on it ${r.maxNetLatenessMs.toFixed(1)} ms (bound ${LATE_TOLERANCE_MS} ms); worst event-loop lag ${r.maxLoopLagMs.toFixed(0)} ms`,
  );
  io.stdout(
    `  settlements past the deadline by > 10 / 25 / 50 ms: ${r.lateness.over10} / ${r.lateness.over25} / ${r.lateness.over50}`,
  );
  const mem = r.memory;
  if (mem.length > 0) {
    const heap = mem.map((m) => m.heapUsedMb);
    const rss = mem.map((m) => m.rssMb);
    io.stdout(
      `  heap after GC: ${Math.min(...heap).toFixed(1)}..${Math.max(...heap).toFixed(1)} MiB; rss ${Math.min(...rss).toFixed(0)}..${Math.max(...rss).toFixed(0)} MiB (${mem.length} samples; bounds after ${MEMORY.warmupStreams} streams: heap +${MEMORY.heapGrowthMb} MiB, rss +${MEMORY.rssGrowthMb} MiB)`,
    );
  }
}

function realSummary(io: ScriptIo, r: RealReport): void {
  const perSecond = r.streams / (r.elapsedMs / 1000);
  io.stdout(
    `${r.name}: ${r.streams} streams in ${(r.elapsedMs / 1000).toFixed(1)} s (${perSecond.toFixed(1)} streams/s)`,
  );
  io.stdout(`  categories: ${JSON.stringify(r.categories)}`);
  io.stdout(
    `  outcomes: ${JSON.stringify(r.outcomes)}; calls after a stream that left bytes behind: ${r.tainted}`,
  );
  io.stdout(
    `  latest settlement: ${r.maxLatenessMs.toFixed(1)} ms after the deadline; from the first moment the process could act on it ${r.maxNetLatenessMs.toFixed(1)} ms (bound ${LATE_TOLERANCE_MS} ms)`,
  );
}

/** Runs the robustness check; resolves with the exit code (1 on the first violation). */
export async function runRobustness(io: ScriptIo): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(io.argv);
  } catch (error) {
    io.stderr((error as Error).message);
    return 2;
  }
  io.stdout(`seed ${args.seed} (replay with --seed ${args.seed})`);
  const faults = new FaultCounter();
  faults.install();
  try {
    if (args.streams > 0) {
      const report = await runInProcess({
        streams: args.streams,
        seed: args.seed,
        from: args.from,
        concurrency: CONCURRENCY,
        lateToleranceMs: LATE_TOLERANCE_MS,
        memory: MEMORY,
        warmupStreams: WARMUP_STREAMS,
        faults,
        onProgress: (done, total) =>
          io.stderr(`in-process: ${done}/${total} (${Math.round((done / total) * 100)}%)`),
      });
      summary(io, 'in-process', report);
      if (report.violation) {
        printViolation(io, report.violation);
        return 1;
      }
    }
    const portions: Array<[number, () => Promise<RealAdapter>]> = [
      [args.stdio, () => stdioAdapter(REAL_MARGINS, KILL_GRACE_MS)],
      [args.http, () => httpAdapter(REAL_MARGINS)],
    ];
    for (const [streams, build] of portions) {
      if (streams === 0) continue;
      const adapter = await build();
      const report = await runReal(adapter, {
        streams,
        seed: args.seed,
        from: args.from,
        lanes: REAL_LANES,
        lateToleranceMs: LATE_TOLERANCE_MS,
        faults,
        onProgress: (done, total) =>
          io.stderr(`${adapter.name}: ${done}/${total} (${Math.round((done / total) * 100)}%)`),
      });
      realSummary(io, report);
      if (report.violation) {
        printViolation(io, report.violation);
        return 1;
      }
    }
    return 0;
  } finally {
    faults.uninstall();
  }
}

if (isMainModule(import.meta.url)) {
  exitWith(runRobustness(consoleIo()), { stack: true });
}
