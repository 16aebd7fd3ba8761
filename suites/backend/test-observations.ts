// Hand-made observations for the judge and verdict unit tests: each builds what a session would
// have recorded, so the judging is tested without a backend.
import type { JsonValue } from '../../protocol/json.js';
import type { NotificationObservation, RequestObservation, TransportReply } from './frame-run.js';

const encoder = new TextEncoder();

/** A request step that got `message` back. */
export function replied(
  step: number,
  message: JsonValue,
  id: string | null = `evt_${step}`,
  pids: number[] = [100],
): RequestObservation {
  return {
    step,
    kind: 'request',
    frame: { kind: 'request', text: '{}', id },
    reply: { ok: true, message, raw: encoder.encode(JSON.stringify(message)) },
    elapsedMs: 1,
    pids,
    noise: [],
  };
}

/** A request step whose transport failed with `code`. */
export function failed(step: number, code: string, detail = 'detail', raw?: string): RequestObservation {
  const reply = {
    ok: false,
    failure: { failureClass: 'malformed', code, detail },
    ...(raw === undefined ? {} : { raw: encoder.encode(raw) }),
  } as TransportReply;
  return {
    step,
    kind: 'request',
    frame: { kind: 'request', text: '{}', id: `evt_${step}` },
    reply,
    elapsedMs: 1,
    pids: [],
    noise: [],
  };
}

/** A decision reply to the request of `step`. */
export function decision(
  step: number,
  effects: JsonValue[],
  over: Record<string, JsonValue> = {},
): RequestObservation {
  return replied(step, {
    jsonrpc: '2.0',
    id: `evt_${step}`,
    result: { protocolVersion: 'draft', effects, ...over },
  });
}

/** An error reply to the request of `step`. */
export function rpcError(step: number, code: number): RequestObservation {
  return replied(step, { jsonrpc: '2.0', id: `evt_${step}`, error: { code, message: 'no' } });
}

/** A valid, advertised deny. */
export const DENY = { type: 'deny', reason: 'blocked', code: 'org.example.block' } as const;

/** A notification step: how it was sent, what the transport said, what came back. */
export function notified(
  step: number,
  via: 'request' | 'notify',
  outcome: NotificationObservation['outcome'],
  inFrames: string[] = [],
  noise: string[] = [],
): NotificationObservation {
  return {
    step,
    kind: 'notification',
    frame: { kind: 'notification', text: '{}' },
    via,
    outcome,
    inFrames: inFrames.map((f) => encoder.encode(f)),
    noise: noise.map((f) => encoder.encode(f)),
  };
}

/** The same observation with `lines` read past as noise during its step. */
export function withNoise<T extends RequestObservation | NotificationObservation>(
  obs: T,
  ...lines: string[]
): T {
  return { ...obs, noise: lines.map((l) => encoder.encode(l)) };
}
