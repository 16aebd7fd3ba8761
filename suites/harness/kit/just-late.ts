/**
 * A reply sent just after the deadline (`late: 'just'`), judged on the mock's recorded send time.
 * One attempt shows either that the harness took a reply the mock sent `justLateByMs` or more after
 * the deadline (counted from the request's arrival: the harness's own deadline started before
 * it), or that it kept its deadline with no room for a small stretch (the reply left, or the call
 * was answered, within `justLateByMs + justLateWindowMs` of the deadline counted from the suite's
 * invoke, which is before the harness could start counting). Anything else (a loaded machine that
 * sent the reply late, a step wrong on evidence that does not show the reply late) shows nothing,
 * and the case runs again with the same deadline.
 */
import type { StepRun } from './case-model.js';
import type { ScaledHarnessMargins } from './timing.js';

/** Attempts of a just-late case before it gives up on conclusive evidence. */
export const JUST_LATE_ATTEMPTS = 4;
/** Attempts in which the harness took the just-late reply that make the case fail. */
export const JUST_LATE_TAKEN_TO_FAIL = 2;

/** What one attempt of a just-late step showed. */
export type JustLateReading =
  | { verdict: 'kept' }
  | { verdict: 'taken'; sentAfterDeadlineMs: number }
  | { verdict: 'inconclusive'; why: string };

/** The first request's reply write, as the mock carried it out: its send time, if it was sent. */
function replySentAt(run: StepRun): { atMs: number; sentMs?: number } | undefined {
  const request = run.records.requests[0];
  if (!request) return undefined;
  const sent = request.firstWriteMs;
  return sent === undefined ? { atMs: request.atMs } : { atMs: request.atMs, sentMs: sent };
}

/**
 * Reads one attempt. `problems` are the step's (a harness that took the reply answers by it);
 * `invokedAtMs` is when the suite sent `invoke`, on the mock's clock (the HTTP mock runs in the
 * suite's process on `performance.now()`).
 */
export function readJustLate(
  run: StepRun,
  problems: readonly string[],
  timeoutMs: number,
  invokedAtMs: number,
  margins: Pick<ScaledHarnessMargins, 'justLateByMs' | 'justLateWindowMs'>,
): JustLateReading {
  const reply = replySentAt(run);
  if (problems.length > 0) {
    if (reply?.sentMs === undefined) {
      return { verdict: 'inconclusive', why: 'the step failed, but the mock sent no reply to blame' };
    }
    const after = reply.sentMs - reply.atMs - timeoutMs;
    if (after >= margins.justLateByMs) return { verdict: 'taken', sentAfterDeadlineMs: after };
    return {
      verdict: 'inconclusive',
      why: `the step failed, but the reply left only ${Math.round(after)} ms after the deadline`,
    };
  }
  const room = timeoutMs + margins.justLateByMs + margins.justLateWindowMs;
  const answered = run.elapsedMs < room;
  const sentInTime = reply?.sentMs !== undefined && reply.sentMs - invokedAtMs < room;
  if (answered || sentInTime) return { verdict: 'kept' };
  return {
    verdict: 'inconclusive',
    why: `the call was answered after ${Math.round(run.elapsedMs)} ms and the reply ${
      reply?.sentMs === undefined ? 'never left' : `left ${Math.round(reply.sentMs - invokedAtMs)} ms`
    } after the invoke, past ${Math.round(room)} ms: a small stretch of the deadline would not show`,
  };
}
