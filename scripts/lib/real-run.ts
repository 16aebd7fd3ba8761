// The real-process portions of the robustness run: hostile streams served by a real backend
// (a persistent stdio child, or an HTTP server) to long-lived reference harnesses, one per lane
// and policy, each lane sequential. A backend adapter says how to serve a stream, when its
// script has finished, and what the settlement may be.
import fc from 'fast-check';
import type { Harness, InvokeResult } from '../../reference-harness/index.js';
import { chunksOf, scriptChunks, streamBytes, type Chunk, type HostileStream } from './hostile-model.js';
import {
  invokeInputFor,
  requestIdFor,
  GcLog,
  settledLateness,
  startDeadlineProbe,
  streamSeed,
  tally,
  type FaultCounter,
  type Violation,
} from './run-support.js';
import { checkSettlement, type Outcome } from './stream-check.js';

/** One call of a real portion, as the adapter sees it. */
export interface RealCall {
  index: number;
  stream: HostileStream;
  requestId: string;
  bytes: Uint8Array;
  chunks: Chunk[];
  harness: Harness;
  result: InvokeResult;
  /** An earlier stream of this harness may have left bytes that this call reads. */
  tainted: boolean;
  /** Bytes of the previous stream on this harness (they may prefix this one's first line). */
  previous: Uint8Array;
}

/** How one kind of real backend serves streams. */
export interface RealAdapter {
  readonly name: string;
  readonly arb: fc.Arbitrary<HostileStream>;
  /** The long-lived harness of one lane and policy (built once, closed by `close`). */
  harnessFor(lane: number, policy: HostileStream['policy']): Harness;
  /** Extra script fields that ride in the tool input, beside the chunks. */
  scriptExtras(stream: HostileStream, bytes: Uint8Array): Record<string, unknown>;
  /** Waits until the backend finished this call's script; returns a problem if it never did. */
  afterCall(call: RealCall): Promise<string | undefined>;
  allowed(call: RealCall): Outcome[];
  /** Whether the next call on this harness may read bytes left over by this one (or by its predecessors). */
  taints(call: RealCall): boolean;
  close(): Promise<string[]>;
}

export interface RealRunOptions {
  streams: number;
  seed: number;
  from?: number;
  lanes: number;
  lateToleranceMs: number;
  faults: FaultCounter;
  onProgress?: (done: number, total: number) => void;
}

/** Totals of one real portion. */
export interface RealReport {
  name: string;
  streams: number;
  elapsedMs: number;
  categories: Record<string, number>;
  outcomes: Record<string, number>;
  tainted: number;
  maxLatenessMs: number;
  maxNetLatenessMs: number;
  violation?: Violation;
}

/** Runs `options.streams` streams through `adapter`, stopping at the first violation. */
export async function runReal(adapter: RealAdapter, options: RealRunOptions): Promise<RealReport> {
  const report: RealReport = {
    name: adapter.name,
    streams: 0,
    elapsedMs: 0,
    categories: {},
    outcomes: {},
    tainted: 0,
    maxLatenessMs: -Infinity,
    maxNetLatenessMs: -Infinity,
  };
  const from = options.from ?? 0;
  const gc = new GcLog();
  gc.start();
  const started = performance.now();
  const step = Math.max(1, Math.floor(options.streams / 20));
  const taint = new Map<string, { tainted: boolean; previous: Uint8Array }>();
  const fail = (index: number, problems: string[], extra: Partial<Violation> = {}) => {
    report.violation ??= { portion: adapter.name, index, seed: options.seed, problems, ...extra };
  };

  const lane = async (laneIndex: number) => {
    for (let k = laneIndex; k < options.streams && !report.violation; k += options.lanes) {
      const index = from + k;
      const [stream] = fc.sample(adapter.arb, { seed: streamSeed(options.seed, index), numRuns: 1 }) as [
        HostileStream,
      ];
      const requestId = requestIdFor(options.seed, index, adapter.name === 'real-http' ? 'h' : 's');
      const bytes = streamBytes(stream, requestId);
      const chunks = chunksOf(bytes, stream.timing);
      const harness = adapter.harnessFor(laneIndex, stream.policy);
      const key = `${laneIndex}:${stream.policy}`;
      const state = taint.get(key) ?? { tainted: false, previous: new Uint8Array(0) };
      const script = { chunks: scriptChunks(chunks), ...adapter.scriptExtras(stream, bytes) };
      const faultsBefore = options.faults.count;
      const probe = startDeadlineProbe(performance.now() + stream.timeoutMs);
      let result: InvokeResult;
      try {
        result = await harness.invoke(invokeInputFor(requestId, index, { script }));
      } catch (error) {
        fail(index, [`invoke rejected: ${error instanceof Error ? error.message : String(error)}`], {
          stream,
          requestId,
        });
        return;
      }
      const reading = probe.stop(performance.now());
      const call: RealCall = { index, stream, requestId, bytes, chunks, harness, result, ...state };
      const problems: string[] = [];
      const stuck = await adapter.afterCall(call);
      if (stuck) problems.push(stuck);
      const lateness = await settledLateness(reading, gc, options.lateToleranceMs);
      const allowed = adapter.allowed(call);
      if (state.tainted) allowed.push({ kind: 'failure' });
      problems.push(
        ...checkSettlement({
          result,
          policy: stream.policy,
          timeoutMs: stream.timeoutMs,
          requestId,
          bytes: state.tainted ? [bytes, Buffer.concat([state.previous, bytes])] : bytes,
          allowed,
          lateness,
          lateToleranceMs: options.lateToleranceMs,
        }),
      );
      if (options.faults.count > faultsBefore)
        problems.push(`unhandled rejection or uncaught exception: ${options.faults.messages.at(-1) ?? ''}`);
      taint.set(key, { tainted: adapter.taints(call), previous: bytes });
      report.streams += 1;
      if (state.tainted) report.tainted += 1;
      tally(report.categories, stream.category);
      tally(report.outcomes, `${result.decision}${result.synthetic ? '/synthetic' : ''}`);
      report.maxLatenessMs = Math.max(report.maxLatenessMs, lateness.rawMs);
      report.maxNetLatenessMs = Math.max(report.maxNetLatenessMs, lateness.netMs);
      if (problems.length > 0) {
        fail(index, [...problems, `(tainted by the previous stream: ${state.tainted})`], {
          stream,
          requestId,
          bytesBase64: Buffer.from(bytes).toString('base64'),
        });
      }
      if (report.streams % step === 0) options.onProgress?.(report.streams, options.streams);
    }
  };

  try {
    await Promise.all(Array.from({ length: options.lanes }, (_, i) => lane(i)));
  } finally {
    gc.stop();
    const leftovers = await adapter.close();
    if (leftovers.length > 0) fail(from + options.streams, leftovers);
  }
  report.elapsedMs = performance.now() - started;
  return report;
}
