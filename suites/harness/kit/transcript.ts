/**
 * The evidence a case attaches: the expectation, the driver's answer and what the mock saw,
 * compact on success and with the full wire transcript on failure. Pure.
 */
import type { JsonObject, JsonValue } from '../../../protocol/json.js';
import type { StepRun } from './case-model.js';
import { bytesText, type WireFrame } from './wire-records.js';

/** One recorded frame with the mock's answer, for people reading a failing case. */
export function frameTranscript(frame: WireFrame): JsonObject {
  return {
    delivery: frame.delivery,
    transport: frame.transport,
    connection: frame.connectionId,
    atMs: Math.round(frame.atMs),
    received: bytesText(frame.bytes),
    ...('base64' in frame.bytes ? { receivedBase64: true } : {}),
    ...(frame.authorization !== undefined
      ? { authorization: frame.authorization.replace(/\S+$/, '<redacted>') }
      : {}),
    mockBehaviour: frame.behaviour as unknown as JsonValue,
    mockActions: frame.actions.map((a) =>
      a.type === 'write'
        ? { type: 'write', afterMs: a.afterMs, text: bytesText(a.bytes) }
        : (a as unknown as JsonValue),
    ),
  };
}

/** Evidence of one step; `full` adds the transcript. */
export function stepEvidence(
  run: StepRun,
  problems: readonly string[],
  full: boolean,
  label?: string,
): JsonObject {
  const evidence: JsonObject = {
    ...(label === undefined ? {} : { step: label }),
    eventId: run.eventId,
    callId: run.callId,
    expected: run.expected as unknown as JsonValue,
    answer: run.result as unknown as JsonValue,
    elapsedMs: Math.round(run.elapsedMs),
    wire: { requests: run.records.requests.length, notifications: run.records.notifications.length },
  };
  if (problems.length > 0) evidence.problems = [...problems];
  if (full) evidence.transcript = run.records.frames.map(frameTranscript);
  return evidence;
}
