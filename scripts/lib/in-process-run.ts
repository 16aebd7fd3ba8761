// The in-process bulk of the robustness run: each generated stream is replayed to a fresh
// reference harness through an injected transport with stdio framing, several at a time, and
// every settlement is checked against what the stream allows.
import fc from 'fast-check';
import type { Harness, HarnessOptions } from '../../reference-harness/index.js';
import { IN_PROCESS_PROFILE, hostileStreamArb, type StreamProfile } from './hostile-arbitraries.js';
import { estimatedBytes, streamBytes, type HostileStream } from './hostile-model.js';
import { runOne, violationOf } from './in-process-stream.js';
import {
  GcLog,
  LagMonitor,
  collectGarbage,
  StreamGate,
  memoryProblem,
  requestIdFor,
  sampleMemory,
  streamSeed,
  tally,
  type FaultCounter,
  type MemoryBounds,
  type MemorySample,
  type Violation,
} from './run-support.js';

/** How one in-process run is sized and judged. */
export interface InProcessOptions {
  streams: number;
  seed: number;
  /** First stream index (to replay one stream: `from` = its index, `streams` = 1). */
  from?: number;
  concurrency: number;
  /** How far past its deadline a call may settle. */
  lateToleranceMs: number;
  memory: MemoryBounds & { sampleEvery: number };
  /** Streams run first with every check but the lateness bound, so cold code (JIT, first loads) is warm. */
  warmupStreams: number;
  faults: FaultCounter;
  profile?: StreamProfile;
  onProgress?: (done: number, total: number) => void;
  /** The harness under test (default: the reference harness); the self-tests pass broken twins. */
  createHarness?: (options: HarnessOptions) => Harness;
}

/** Totals of one run. */
export interface InProcessReport {
  streams: number;
  elapsedMs: number;
  categories: Record<string, number>;
  outcomes: Record<string, number>;
  lateReplies: number;
  /** Streams whose deadline passed before the harness could send (a descheduled process). */
  unsent: number;
  maxLatenessMs: number;
  /** The same, less the time the process waited for a CPU meanwhile. */
  maxNetLatenessMs: number;
  /** Settlements past the deadline, by how far: over 10, 25 and 50 ms. */
  lateness: { over10: number; over25: number; over50: number };
  /** The worst event-loop lag seen during the timed part (starvation context). */
  maxLoopLagMs: number;
  memory: MemorySample[];
  violation?: Violation;
}

/** Streams between two collections at a quiet moment (all in-flight calls drained). */
const QUIET_GC_EVERY = 200;

/** Streams this large run alone: moving megabytes would delay the deadlines of their neighbours. */
const HEAVY_BYTES = 64 * 1024;
/** Floods of more lines than this run alone too: framing each line costs the loop tens of ms. */
const HEAVY_LINES = 200;

function isHeavy(stream: HostileStream): boolean {
  return (
    estimatedBytes(stream) > HEAVY_BYTES ||
    stream.segments.some((s) => s.kind === 'flood' && s.count > HEAVY_LINES)
  );
}

/** Runs the in-process streams, stopping at the first violation. */
export async function runInProcess(options: InProcessOptions): Promise<InProcessReport> {
  const profile = options.profile ?? IN_PROCESS_PROFILE;
  const arb = hostileStreamArb(profile);
  const from = options.from ?? 0;
  const report: InProcessReport = {
    streams: 0,
    elapsedMs: 0,
    categories: {},
    outcomes: {},
    lateReplies: 0,
    unsent: 0,
    maxLatenessMs: -Infinity,
    maxNetLatenessMs: -Infinity,
    memory: [],
    maxLoopLagMs: 0,
    lateness: { over10: 0, over25: 0, over50: 0 },
  };
  const gc = new GcLog();
  gc.start();
  const streamOptions = { ...options, gc };
  const generate = (index: number) =>
    (fc.sample(arb, { seed: streamSeed(options.seed, index), numRuns: 1 }) as [HostileStream])[0];
  for (let i = 0; i < options.warmupStreams && !report.violation; i++) {
    const index = -1 - i;
    const stream = generate(index);
    const bytes = streamBytes(stream, requestIdFor(options.seed, index));
    const run = await runOne(
      index,
      stream,
      bytes,
      { ...streamOptions, lateToleranceMs: Number.POSITIVE_INFINITY },
      profile.frameCapBytes,
    );
    if (run.problems.length > 0) report.violation = violationOf(run, options.seed, run.problems);
  }
  collectGarbage();
  const lag = new LagMonitor();
  lag.start();
  const gate = new StreamGate();
  const started = performance.now();
  let next = 0;
  let faultsSeen = options.faults.count;
  const step = Math.max(1, Math.floor(options.streams / 20));
  while (next < options.streams && !report.violation) {
    // Work in slices, drained before each collection so a full GC costs no deadline (left to
    // itself, V8 would run its major GCs in the middle of in-flight deadlines).
    const sliceEnd = Math.min(
      options.streams,
      next + QUIET_GC_EVERY,
      (Math.floor(next / options.memory.sampleEvery) + 1) * options.memory.sampleEvery,
    );
    const worker = async () => {
      while (next < sliceEnd && !report.violation) {
        const index = from + next++;
        const stream = generate(index);
        const heavy = isHeavy(stream);
        await gate.enter(heavy);
        const bytes = streamBytes(stream, requestIdFor(options.seed, index));
        const run = await runOne(index, stream, bytes, streamOptions, profile.frameCapBytes).finally(() => {
          // Still alone: collect the megabytes now rather than during a neighbour's deadline.
          if (heavy) collectGarbage();
          gate.leave(heavy);
        });
        report.streams += 1;
        tally(report.categories, stream.category);
        if (run.result)
          tally(report.outcomes, `${run.result.decision}${run.result.synthetic ? '/synthetic' : ''}`);
        if (run.late) report.lateReplies += 1;
        if (run.unsent) report.unsent += 1;
        report.maxLatenessMs = Math.max(report.maxLatenessMs, run.latenessMs);
        report.maxNetLatenessMs = Math.max(report.maxNetLatenessMs, run.netLatenessMs);
        if (run.latenessMs > 10) report.lateness.over10 += 1;
        if (run.latenessMs > 25) report.lateness.over25 += 1;
        if (run.latenessMs > 50) report.lateness.over50 += 1;
        if (options.faults.count > faultsSeen) {
          run.problems.push(
            `unhandled rejection or uncaught exception while this stream ran: ${options.faults.messages.at(-1) ?? ''}`,
          );
          faultsSeen = options.faults.count;
        }
        if (run.problems.length > 0 && !report.violation) {
          run.problems.push(
            `(context: ${run.timeline ?? ''}; the event loop lagged up to ${lag.recentMaxLag(1000).toFixed(0)} ms in the last second)`,
          );
          report.violation = violationOf(run, options.seed, run.problems);
        }
        if (report.streams % step === 0) options.onProgress?.(report.streams, options.streams);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    // Let a rejection that surfaces a turn late still be seen before the next slice.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (next % options.memory.sampleEvery !== 0 && next < options.streams) {
      collectGarbage();
      continue;
    }
    report.memory.push(sampleMemory(report.streams));
    const leak = memoryProblem(report.memory, options.memory);
    const fault =
      options.faults.count > faultsSeen
        ? `unhandled rejection or uncaught exception: ${options.faults.messages.at(-1) ?? ''}`
        : undefined;
    const problem = leak ?? fault;
    if (problem && !report.violation) {
      report.violation = {
        portion: 'in-process',
        index: from + next - 1,
        seed: options.seed,
        problems: [problem],
      };
    }
  }
  lag.stop();
  gc.stop();
  report.maxLoopLagMs = lag.maxLagMs;
  report.elapsedMs = performance.now() - started;
  return report;
}
