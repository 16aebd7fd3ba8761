/**
 * Test support for the engine's unit tests: request frames as a harness would send them, and
 * readable views of the actions that come back. Not part of the public API.
 */
import type { JsonObject, JsonValue } from '../protocol/json.js';
import { step, initialState, type StepResult } from './engine.js';
import type {
  Action,
  EngineState,
  HttpMeta,
  InboundFrame,
  RecordEntry,
  Scenario,
  Transport,
} from './model.js';
import { entriesOf } from './recorded-delivery.js';

/** A `hooks/intercept` request for a `tool.before` event. */
export function interceptRequest(
  options: {
    id?: string | number;
    eventId?: string;
    tool?: string;
    input?: JsonObject;
    type?: string;
    protocolVersion?: string;
  } = {},
): JsonObject {
  const eventId = options.eventId ?? 'evt_1';
  return {
    jsonrpc: '2.0',
    id: options.id ?? eventId,
    method: 'hooks/intercept',
    params: {
      protocolVersion: options.protocolVersion ?? 'draft',
      event: {
        id: eventId,
        source: 'urn:uuid:00000000-0000-4000-8000-000000000001',
        type: options.type ?? 'tool.before',
        time: '2026-08-24T08:51:14Z',
        call: { id: 'call_1' },
        tool: { name: options.tool ?? 'Bash', origin: 'native', input: options.input ?? { command: 'ls' } },
        path: 'native',
      },
      capabilities: { effects: ['deny'] },
    },
  };
}

/** A `hooks/observe` notification. */
export function observeNotification(eventId = 'evt_1'): JsonObject {
  const request = interceptRequest({ eventId });
  const params = request.params as JsonObject;
  return {
    jsonrpc: '2.0',
    method: 'hooks/observe',
    params: { protocolVersion: 'draft', event: params.event ?? null },
  };
}

const HTTP_JSON: HttpMeta = { method: 'POST', path: '/', headers: { 'content-type': 'application/json' } };

/** An inbound frame: a JSON value is serialized, a string is UTF-8 encoded, bytes pass through. */
export function frameOf(
  payload: JsonValue | Uint8Array,
  transport: Transport = 'stdio',
  options: { http?: HttpMeta; at?: number; asText?: boolean } = {},
): InboundFrame {
  const bytes =
    payload instanceof Uint8Array
      ? payload
      : new TextEncoder().encode(
          typeof payload === 'string' && options.asText ? payload : JSON.stringify(payload),
        );
  const at = options.at ?? 1000;
  const frame: InboundFrame = {
    bytes,
    transport,
    connectionId: transport === 'stdio' ? '4242' : 'c1',
    at: { monotonic: at, wall: 1_767_225_600_000 + at },
  };
  if (transport !== 'stdio') frame.http = options.http ?? HTTP_JSON;
  return frame;
}

/** A step's result with the public entries of what it recorded. */
export type SteppedFrame = StepResult & { records: RecordEntry[] };

/** One step, with its recorded entries built. */
export function stepped(scenario: Scenario, state: EngineState, frame: InboundFrame): SteppedFrame {
  const result = step(scenario, state, frame);
  return { ...result, records: [...entriesOf(result.recorded)] };
}

/** Runs frames through the engine in order; returns every step's result. */
export function runFrames(scenario: Scenario, frames: InboundFrame[], state?: EngineState): SteppedFrame[] {
  let current = state ?? initialState(scenario);
  return frames.map((f) => {
    const result = stepped(scenario, current, f);
    current = result.state;
    return result;
  });
}

/** One step from the initial state. */
export function once(scenario: Scenario, frame: InboundFrame): SteppedFrame {
  return stepped(scenario, initialState(scenario), frame);
}

/** Every written byte, concatenated. */
export function written(actions: readonly Action[]): Uint8Array {
  return new Uint8Array(Buffer.concat(actions.flatMap((a) => (a.type === 'write' ? [a.bytes] : []))));
}

/** The default `[]` success reply to request `id`, as a stdio frame (newline included). */
export function emptyReply(id: string): string {
  return `{"jsonrpc":"2.0","id":"${id}","result":{"protocolVersion":"draft","effects":[]}}\n`;
}

/** Every written byte as UTF-8 text (lossy only where the bytes are not UTF-8). */
export function writtenText(actions: readonly Action[]): string {
  return Buffer.from(written(actions)).toString('utf8');
}

/** Actions with bytes as text, for compact exact comparisons. */
export function readable(actions: readonly Action[]): Array<Record<string, unknown>> {
  return actions.map((a) =>
    a.type === 'write' ? { ...a, bytes: Buffer.from(a.bytes).toString('utf8') } : { ...a },
  );
}

/** A scenario with one unconditional rule. */
export function only(
  behaviour: Scenario['rules'][number]['behaviour'],
  extra: Partial<Scenario> = {},
): Scenario {
  return { rules: [{ behaviour }], ...extra };
}
