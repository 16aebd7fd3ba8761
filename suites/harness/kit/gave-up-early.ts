/**
 * A harness that gave up on a reply its deadline still allowed: the mock held a valid reply for
 * less than `timeoutMs`, and the call ended, unanswered by it, before the reply could even leave.
 * That is one defect (a timeout of the harness's own, shorter than the configured deadline), and
 * every other difference in the answer (a failure where the reply's decision was due, the audit's
 * class, a synthetic flag) follows from it: the step is judged on it alone, in one sentence that
 * names the evidence. Only steps whose expectation rests on `deadline.full-length` are read so. Pure.
 */
import type { DriverAuditEntry } from '../../driver/index.js';
import type { Finding } from '../../common/finding.js';
import type { StepRun } from './case-model.js';
import { tookReply } from './outcome-rules.js';
import { finding } from './rules.js';

/** Seconds with one decimal, as a person reads a timeout ("5.0 s"). */
function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** How long the mock held its reply to the step's first request, if it held one. */
function heldReplyMs(run: StepRun): number | undefined {
  const behaviour = run.records.requests[0]?.behaviour;
  return behaviour?.kind === 'delay' ? behaviour.ms : undefined;
}

/** What the audit entry says of the failure, for the sentence (only what the driver reported). */
function auditWords(entry: DriverAuditEntry | undefined): string {
  if (entry === undefined) return 'the driver reported no audit entry';
  const parts = [`the audit says ${entry.outcome}`];
  if (entry.failureClass !== undefined) parts.push(`class ${entry.failureClass}`);
  if (entry.durationMs !== undefined) parts.push(`after ${Math.round(entry.durationMs)} ms`);
  return parts.join(', ');
}

/**
 * The finding of a step whose harness gave up before the deadline, or undefined when the evidence
 * does not show that: the request reached the mock, the mock held its reply for less than the
 * deadline, the harness settled the call without taking a reply, and it answered the suite before
 * that reply could have left (the reply leaves its hold after the request's arrival, which comes
 * after the suite's invoke). The time given up after is the audit's `durationMs` when the driver
 * reports it (the harness's own count), else the suite's.
 */
export function gaveUpEarly(
  run: StepRun,
  entry: DriverAuditEntry | undefined,
  timeoutMs: number,
): Finding | undefined {
  if (run.expected.rule !== 'deadline.full-length') return undefined;
  const heldMs = heldReplyMs(run);
  if (heldMs === undefined || heldMs >= timeoutMs) return undefined;
  if (tookReply(run.result, entry) || run.elapsedMs >= heldMs) return undefined;
  const gaveUpAfterMs = entry?.durationMs ?? run.elapsedMs;
  const timeout = timeoutMs % 1000 === 0 ? `${timeoutMs / 1000} s` : seconds(timeoutMs);
  return finding(
    'deadline.full-length',
    `the harness gave up after ${seconds(gaveUpAfterMs)}, inside the ${timeout} timeoutMs: a transport timeout shorter than the deadline (the mock held its reply ${seconds(heldMs)} after the request arrived; the call was answered to the suite after ${seconds(run.elapsedMs)}, with decision ${run.result.decision}; ${auditWords(entry)})`,
  );
}
