// One in-process stream: replayed to a fresh harness through the stdio-framed replay transport,
// then every settlement property checked against what the stream allows.
import {
  createHarness,
  type Harness,
  type HarnessOptions,
  type InvokeResult,
} from '../../reference-harness/index.js';
import { chunksOf, type HostileStream } from './hostile-model.js';
import { createReplayTransport, type ReplayRecord } from './replay-transport.js';
import { judgeLine, splitLines, type Verdict } from './reply-oracle.js';
import {
  BACKEND_ID,
  invokeInputFor,
  registrationFor,
  requestIdFor,
  settledLateness,
  startDeadlineProbe,
  type GcLog,
  type Violation,
} from './run-support.js';
import { checkSettlement, outcomesOf, type Outcome } from './stream-check.js';

/** What one stream needs from its run. */
export interface StreamRunOptions {
  seed: number;
  /** How far past its deadline a call may settle. */
  lateToleranceMs: number;
  /** The harness under test (default: the reference harness); the self-tests pass broken twins. */
  createHarness?: (options: HarnessOptions) => Harness;
  /** GC pauses, so lateness can leave them out. */
  gc: GcLog;
}

const SOURCE = 'urn:uuid:00000000-0000-4000-8000-00000000b0b0';

/**
 * The settlements a stream allows, given when (and whether) its first item reached the harness.
 * No timing band is needed: a reply that came after `requestedAt + T` is past the harness's
 * deadline (which started earlier), and one whose audit record settled before `startedAt + T` was
 * judged before the deadline (which started later). Only replies between the two may go either way.
 */
export function allowedOutcomes(
  stream: HostileStream,
  bytes: Uint8Array,
  requestId: string,
  record: ReplayRecord,
  audit: { startedAt: number; settledAt: number } | undefined,
  frameCap: number,
): Outcome[] {
  const deadline: Outcome = { kind: 'failure', failureClass: 'deadline-exceeded' };
  // Whatever arrived, a harness that got to judge it only after its deadline must refuse it.
  const judgedLate = !audit || audit.settledAt >= audit.startedAt + stream.timeoutMs;
  if (record.firstItemAt === undefined || !record.firstItemWhileListening) {
    if (record.answeredBy !== 'eof') return [deadline];
    return judgedLate
      ? [{ kind: 'failure', failureClass: 'process' }, deadline]
      : [{ kind: 'failure', failureClass: 'process' }];
  }
  if (record.firstItemAt >= (record.requestedAt ?? 0) + stream.timeoutMs) return [deadline];
  const first = splitLines(bytes).lines[0];
  // No complete line but an item: EOF inside a frame, a framing fault.
  const verdict: Verdict = first
    ? judgeLine(first, requestId, frameCap)
    : { kind: 'invalid', failureClass: 'malformed' };
  const allowed = outcomesOf(verdict);
  if (judgedLate) allowed.push(deadline);
  return allowed;
}

/** One stream's outcome: its problems (empty when the harness behaved) and its figures. */
export interface StreamRun {
  index: number;
  requestId: string;
  stream: HostileStream;
  bytes: Uint8Array;
  problems: string[];
  result?: InvokeResult;
  latenessMs: number;
  /** Lateness less the time the process waited for a CPU meanwhile. */
  netLatenessMs: number;
  late: boolean;
  unsent: boolean;
  timeline?: string;
}

/** Replays one stream to a fresh harness and checks the settlement. */
export async function runOne(
  index: number,
  stream: HostileStream,
  bytes: Uint8Array,
  options: StreamRunOptions,
  cap: number,
): Promise<StreamRun> {
  const requestId = requestIdFor(options.seed, index);
  const { transport, record } = createReplayTransport(chunksOf(bytes, stream.timing), stream.end, cap);
  const run: StreamRun = {
    index,
    requestId,
    stream,
    bytes,
    problems: [],
    latenessMs: 0,
    netLatenessMs: 0,
    late: false,
    unsent: false,
  };
  const harness = (options.createHarness ?? createHarness)({
    registration: registrationFor(
      { type: 'stdio', command: 'replayed-in-process', lifecycle: 'persistent' },
      stream,
    ),
    transports: { [BACKEND_ID]: transport },
    advertisedEffects: ['deny'],
    source: SOURCE,
  });
  const t0 = performance.now();
  const probe = startDeadlineProbe(t0 + stream.timeoutMs);
  try {
    run.result = await harness.invoke(invokeInputFor(requestId, index));
  } catch (error) {
    run.problems.push(`invoke rejected: ${error instanceof Error ? error.message : String(error)}`);
  }
  const settledAt = performance.now();
  const reading = probe.stop(settledAt);
  run.timeline = `invoke->send ${record.requestedAt === undefined ? 'never' : (record.requestedAt - t0).toFixed(1)} ms, send->first item ${record.firstItemAt === undefined ? '-' : (record.firstItemAt - (record.requestedAt ?? 0)).toFixed(1)} ms, -> settled ${(settledAt - (record.firstItemAt ?? record.requestedAt ?? t0)).toFixed(1)} ms`;
  // A harness descheduled past a short deadline before sending rightly sends nothing; otherwise once.
  run.unsent = record.requests === 0;
  if (record.requests > 1 || (run.unsent && settledAt < reading.deadlineAt)) {
    run.problems.push(
      `the harness sent ${record.requests} requests (retries are 0) and settled ${(settledAt - reading.deadlineAt).toFixed(1)} ms after its deadline`,
    );
  }
  if (record.requests > 0) await record.done;
  await harness.close();
  const lateness = await settledLateness(reading, options.gc, options.lateToleranceMs);
  run.latenessMs = lateness.rawMs;
  run.netLatenessMs = lateness.netMs;
  if (!run.result) return run;
  run.late = record.lateDelivered;
  const sent = run.result.transcript.find((e) => e.direction === 'out')?.text;
  const request =
    sent === undefined
      ? undefined
      : (JSON.parse(sent) as { id?: unknown; params?: { event?: { id?: unknown } } });
  if (!run.unsent && (request?.id !== requestId || request.params?.event?.id !== requestId)) {
    run.problems.push('the request frame does not carry the event id as its JSON-RPC id');
  }
  if (!run.unsent && splitLines(bytes).lines.length > 0 && record.firstItemAt === undefined) {
    run.problems.push('the stdio framing produced no item for a complete line');
  }
  if (record.lateDelivered !== (run.result.audit[0]?.lateResponse !== undefined)) {
    run.problems.push(
      'a reply after the deadline is not noted on the audit record (or one is noted that never came)',
    );
  }
  run.problems.push(
    ...checkSettlement({
      result: run.result,
      policy: stream.policy,
      timeoutMs: stream.timeoutMs,
      requestId,
      bytes,
      allowed: allowedOutcomes(stream, bytes, requestId, record, run.result.audit[0], cap),
      lateness,
      lateToleranceMs: options.lateToleranceMs,
    }),
  );
  return run;
}

/** The replayable violation record of a stream with problems. */
export function violationOf(run: StreamRun, seed: number, problems: string[]): Violation {
  return {
    portion: 'in-process',
    index: run.index,
    seed,
    requestId: run.requestId,
    stream: run.stream,
    bytesBase64: Buffer.from(run.bytes).toString('base64'),
    problems,
  };
}
