/**
 * When a call shows nothing because its stdio backend was still starting: the harness starts a
 * backend process inside the call (the draft leaves when to start one to the harness), the call's
 * deadline ends before the process has come up, and the request never reaches the mock. That is
 * not the harness's fault (a deadline failure under the policy is what the draft asks for), nor
 * is it evidence of what the case checks. Decided on the mock's process records only: a process
 * the mock knows reported its start after the call began and no earlier than `startupSlackMs`
 * before the driver's answer, and no process of the case was up for the call before that. A
 * harness that spawned nothing, or whose backend was up and got no request, shows no cold start.
 * Pure.
 */
import type { ProcessInfo } from '../../../mock-backend/index.js';

/** The moments that frame one call, on the wall clock the mock stamps process starts with. */
export interface CallWindow {
  /** When the suite sent `invoke` (less rounding). */
  startedWallMs: number;
  /** When the driver's answer arrived. */
  answeredWallMs: number;
  /** How much before the answer a start may be reported and still count as not up (clock skew). */
  startupSlackMs: number;
}

/** Processes that reported their start after the call began. */
export function startedDuring(processes: readonly ProcessInfo[], call: Pick<CallWindow, 'startedWallMs'>) {
  return processes.filter((p) => p.startedAt >= call.startedWallMs);
}

/**
 * Why the call reached no backend, when the records show its backend still starting; undefined
 * when they do not (the call is judged as usual). Only for a call of which the mock recorded no
 * frame at all.
 */
export function stillStarting(processes: readonly ProcessInfo[], call: CallWindow): string | undefined {
  const upBy = call.answeredWallMs - call.startupSlackMs;
  // A process that was up while the call ran (and had not ended before it began) could have been
  // asked: nothing reaching it is the harness's doing.
  const upDuringCall = processes.some(
    (p) => p.startedAt < upBy && (p.exit === undefined || p.exit.at >= call.startedWallMs),
  );
  if (upDuringCall) return undefined;
  const late = startedDuring(processes, call).filter((p) => p.startedAt >= upBy);
  const first = late[0];
  if (first === undefined) return undefined;
  const after = Math.round(first.startedAt - call.answeredWallMs);
  const when = after >= 0 ? `${after} ms after the driver's answer` : `as the driver answered`;
  return `the backend process the harness started for this call was still starting when the call ended (it came up ${when}), so no request reached the mock`;
}

/** A request the mock recorded: its connection (a stdio process's pid), arrival and scripted writes. */
export interface DeliveredRequest {
  connectionId: string;
  atWallMs: number;
  actions: readonly { type: string; afterMs?: number }[];
}

/**
 * Why the call shows nothing of its reply, when the records show a start that ate the deadline:
 * the request reached a backend process started inside the call, the mock's scripted hold would
 * have fit inside `timeoutMs` on its own, but counted from the call's start the reply was due only
 * after the deadline. A harness that gave up then was right, and the case learnt nothing of what
 * it checks. Undefined otherwise (a warm backend, or a reply that was due inside the deadline, is
 * judged as usual).
 */
export function startOutlastedDeadline(
  processes: readonly ProcessInfo[],
  call: Pick<CallWindow, 'startedWallMs'>,
  requests: readonly DeliveredRequest[],
  timeoutMs: number,
): string | undefined {
  const deadlineWallMs = call.startedWallMs + timeoutMs;
  const coldPids = new Set(startedDuring(processes, call).map((p) => String(p.pid)));
  for (const request of requests) {
    if (!coldPids.has(request.connectionId)) continue;
    const hold = request.actions.find((a) => a.type === 'write')?.afterMs;
    if (hold === undefined || hold >= timeoutMs) continue;
    const dueWallMs = request.atWallMs + hold;
    if (dueWallMs <= deadlineWallMs) continue;
    const startedAfter = Math.round(request.atWallMs - call.startedWallMs);
    return `the backend process the harness started for this call took ${startedAfter} ms to read the request, so the reply the mock holds ${hold} ms was due after the ${timeoutMs} ms deadline`;
  }
  return undefined;
}
