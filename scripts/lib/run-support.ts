// Shared pieces of the robustness runs: the registration, the invoke input, per-stream seeds,
// a violation record that replays, fault counting and memory sampling.
import { readFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { InvokeInput } from '../../reference-harness/index.js';
import type { HostileStream } from './hostile-model.js';

/** The one backend every robustness registration has. */
export const BACKEND_ID = 'com.example.hostile';

/** A registration with one intercept subscription under the stream's policy and timeout. */
export function registrationFor(
  transport: object,
  stream: Pick<HostileStream, 'policy' | 'timeoutMs'>,
): Record<string, unknown> {
  return {
    protocolVersion: 'draft',
    hooks: [
      {
        id: BACKEND_ID,
        transport,
        subscriptions: [
          {
            events: ['tool.before'],
            mode: 'intercept',
            timeoutMs: stream.timeoutMs,
            failurePolicy: stream.policy,
            content: { default: 'omit' },
          },
        ],
      },
    ],
  };
}

/** The request id of stream `index` of run `seed`: the event id, which the JSON-RPC id must equal. */
export function requestIdFor(seed: number, index: number, lane = ''): string {
  return `evt_${seed}_${lane}${index}`;
}

/** The tool call raised for one stream; `extra` rides in the tool input (the real backends read it). */
export function invokeInputFor(id: string, index: number, extra: Record<string, unknown> = {}): InvokeInput {
  return {
    session: { id: 'sess_robustness' },
    call: { id: `call_${index}` },
    tool: { name: 'Bash', input: { command: 'rm -rf ./build', ...extra } as InvokeInput['tool']['input'] },
    eventId: id,
  };
}

/** A per-stream fast-check seed, so one stream regenerates without its predecessors. */
export function streamSeed(seed: number, index: number): number {
  return (Math.imul(index + 1, 0x9e3779b1) ^ seed) | 0;
}

/** The first violation of a run, with everything needed to replay it. */
export interface Violation {
  portion: string;
  index: number;
  seed: number;
  requestId?: string;
  stream?: HostileStream;
  /** The exact bytes the backend wrote, base64. */
  bytesBase64?: string;
  problems: string[];
}

/** Counts unhandled rejections and uncaught exceptions while installed. */
export class FaultCounter {
  count = 0;
  readonly messages: string[] = [];
  private readonly onFault = (error: unknown) => {
    this.count += 1;
    if (this.messages.length < 5)
      this.messages.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
  };

  install(): void {
    process.on('unhandledRejection', this.onFault);
    process.on('uncaughtException', this.onFault);
  }

  uninstall(): void {
    process.off('unhandledRejection', this.onFault);
    process.off('uncaughtException', this.onFault);
  }
}

/** One memory sample, in MiB. */
export interface MemorySample {
  afterStreams: number;
  heapUsedMb: number;
  rssMb: number;
}

let gcFn: (() => void) | undefined;

/**
 * Runs a full collection now. Streams of megabytes leave external memory that would otherwise be
 * collected in the middle of other streams' deadlines; the runs collect at quiet moments instead.
 */
export function collectGarbage(): void {
  if (gcFn === undefined) {
    setFlagsFromString('--expose-gc');
    gcFn = runInNewContext('gc') as () => void;
  }
  gcFn();
}

/**
 * Samples memory after a full collection when one can be forced (so the figure is live data, not
 * garbage that has not been collected yet); callers drain their work first so it costs no deadline.
 */
export function sampleMemory(afterStreams: number): MemorySample {
  collectGarbage();
  const { heapUsed, rss } = process.memoryUsage();
  return { afterStreams, heapUsedMb: heapUsed / 2 ** 20, rssMb: rss / 2 ** 20 };
}

/** Growth limits after warm-up; beyond them the run reports a leak. */
export interface MemoryBounds {
  warmupStreams: number;
  heapGrowthMb: number;
  rssGrowthMb: number;
}

/** A problem when `sample` outgrew the bounds relative to the first sample after warm-up. */
export function memoryProblem(samples: readonly MemorySample[], bounds: MemoryBounds): string | undefined {
  const baseline = samples.find((s) => s.afterStreams >= bounds.warmupStreams);
  const last = samples[samples.length - 1];
  if (!baseline || !last || last === baseline) return undefined;
  const heap = last.heapUsedMb - baseline.heapUsedMb;
  const rss = last.rssMb - baseline.rssMb;
  if (heap > bounds.heapGrowthMb)
    return `heap grew ${heap.toFixed(1)} MiB after warm-up (bound ${bounds.heapGrowthMb} MiB)`;
  if (rss > bounds.rssGrowthMb)
    return `rss grew ${rss.toFixed(1)} MiB after warm-up (bound ${bounds.rssGrowthMb} MiB)`;
  return undefined;
}

/** Adds one to `key` of a tally. */
export function tally(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/**
 * Watches how late a short interval timer fires: when a settlement is late, this tells whether
 * the whole process was starved or blocked at the time (context for the report, not an excuse).
 */
export class LagMonitor {
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly samples: Array<{ at: number; lag: number }> = [];
  maxLagMs = 0;

  start(intervalMs = 10): void {
    let last = performance.now();
    this.timer = setInterval(() => {
      const now = performance.now();
      const lag = Math.max(0, now - last - intervalMs);
      last = now;
      this.maxLagMs = Math.max(this.maxLagMs, lag);
      this.samples.push({ at: now, lag });
      if (this.samples.length > 1000) this.samples.splice(0, 500);
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** The worst lag seen in the last `windowMs`. */
  recentMaxLag(windowMs: number): number {
    const since = performance.now() - windowMs;
    return this.samples.filter((s) => s.at >= since).reduce((m, s) => Math.max(m, s.lag), 0);
  }
}

/** Admits streams concurrently, except heavy ones (megabytes of bytes), which run alone. */
export class StreamGate {
  private running = 0;
  private exclusive = false;
  private waiters: Array<() => void> = [];

  async enter(heavy: boolean): Promise<void> {
    while (this.exclusive || (heavy && this.running > 0)) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    this.running += 1;
    if (heavy) this.exclusive = true;
  }

  leave(heavy: boolean): void {
    this.running -= 1;
    if (heavy) this.exclusive = false;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/**
 * Milliseconds this thread has spent runnable but waiting for a CPU (Linux schedstat), or 0 where
 * the kernel does not say. On a shared machine the OS can withhold the CPU for hundreds of ms;
 * that time is no lateness of the harness, so lateness is judged net of it (and reported both ways).
 */
export function runQueueWaitMs(): number {
  try {
    const fields = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ');
    const ns = Number(fields[1]);
    return Number.isFinite(ns) ? ns / 1e6 : 0;
  } catch {
    return 0;
  }
}

/** How late a call settled: raw, and from the first moment the process could act on its deadline. */
export interface Lateness {
  /** Settlement minus the deadline (negative when in time). */
  rawMs: number;
  /**
   * Settlement minus the later of the deadline and the first event-loop turn at it, less the time
   * the process then could not run JavaScript (waiting for a CPU, or stopped for a GC): what the
   * harness itself added after its deadline.
   */
  netMs: number;
}

/** Stop-the-world GC pauses, kept for a while so a call's window can be matched against them. */
export class GcLog {
  private readonly pauses: Array<{ from: number; to: number }> = [];
  private readonly observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) this.pauses.push({ from: e.startTime, to: e.startTime + e.duration });
    if (this.pauses.length > 4000) this.pauses.splice(0, 2000);
  });

  start(): void {
    this.observer.observe({ entryTypes: ['gc'] });
  }

  stop(): void {
    this.observer.disconnect();
  }

  /** Milliseconds of GC pause inside [from, to]. */
  pausedWithin(from: number, to: number): number {
    let total = 0;
    for (const p of this.pauses) total += Math.max(0, Math.min(to, p.to) - Math.max(from, p.from));
    return total;
  }
}

/** A probe fires this much before the deadline, so it runs before the harness's own timer. */
const PROBE_LEAD_MS = 1;

/** What a deadline probe saw; `lateness` turns it into figures once GC entries have arrived. */
export interface ProbeReading {
  deadlineAt: number;
  settledAt: number;
  /** When the process first ran at the deadline (undefined: not before settlement). */
  turnAt?: number;
  /** Run-queue wait between that turn and settlement. */
  starvedMs: number;
}

/**
 * Watches one call's deadline. A blocked or starved process cannot act on any deadline, so the
 * harness is held to the moment the process first ran again at the deadline (the probe's turn).
 */
export function startDeadlineProbe(deadlineAt: number): { stop(settledAt: number): ProbeReading } {
  let turnAt: number | undefined;
  let waitAtTurn = 0;
  const timer = setTimeout(
    () => {
      turnAt = performance.now();
      waitAtTurn = runQueueWaitMs();
    },
    Math.max(0, deadlineAt - PROBE_LEAD_MS - performance.now()),
  );
  return {
    stop(settledAt) {
      clearTimeout(timer);
      const reading: ProbeReading = { deadlineAt, settledAt, starvedMs: 0 };
      if (turnAt !== undefined) {
        reading.turnAt = turnAt;
        reading.starvedMs = runQueueWaitMs() - waitAtTurn;
      }
      return reading;
    },
  };
}

/** The lateness of a probed call; read it after the call's GC entries were delivered (a turn later). */
export function latenessOf(reading: ProbeReading, gc: GcLog): Lateness {
  const rawMs = reading.settledAt - reading.deadlineAt;
  // Settled after the deadline while the probe, due just before it, never got to run: no timer
  // phase ran since the deadline, so the harness settled at its first chance.
  if (reading.turnAt === undefined) return { rawMs, netMs: Math.min(rawMs, 0) };
  const from = Math.max(reading.deadlineAt, reading.turnAt);
  const netMs = reading.settledAt - from - reading.starvedMs - gc.pausedWithin(from, reading.settledAt);
  return { rawMs, netMs };
}

/** How long V8's GC entries may take to reach a PerformanceObserver (about 10 ms here). */
const GC_ENTRY_DELAY_MS = 50;

/**
 * The lateness of a probed call. Only a call that looks late needs the GC pauses of its window,
 * and their entries arrive asynchronously, so only such a call waits for them.
 */
export async function settledLateness(
  reading: ProbeReading,
  gc: GcLog,
  toleranceMs: number,
): Promise<Lateness> {
  if (reading.settledAt - reading.deadlineAt > toleranceMs) {
    await new Promise<void>((resolve) => setTimeout(resolve, GC_ENTRY_DELAY_MS));
  }
  return latenessOf(reading, gc);
}
