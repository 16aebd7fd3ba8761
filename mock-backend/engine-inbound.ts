/**
 * Decoding of one inbound frame for the engine: fatal UTF-8, JSON, the JSON-RPC request
 * envelope, and the AHP fields rules match on. Problems become violations, never exceptions.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../protocol/json.js';
import { checkRequestEnvelope } from '../protocol/jsonrpc.js';
import { DEFAULT_MAX_FRAME_BYTES, decodeLine } from '../protocol/ndjson.js';
import { INTERCEPT_METHOD, OBSERVE_METHOD } from '../protocol/wire-types.js';
import { strictUtf8 } from './recording.js';
import type { FramingFault, InboundKind, ViolationCode } from './model.js';

/** A violation before it is stamped with delivery and transport. */
export interface FrameViolation {
  code: ViolationCode;
  message: string;
  path?: string;
}

/** What the engine learned from one frame. */
export interface DecodedFrame {
  kind: InboundKind;
  /** For unparseable frames: which layer failed (picks the default JSON-RPC error code). */
  layer?: 'bytes' | 'envelope';
  method?: string;
  id?: string | number;
  protocolVersion?: string;
  event?: JsonObject;
  eventId?: string;
  eventType?: string;
  toolName?: string;
  /** The frame as text when its bytes are valid UTF-8 (recorded as is, so they are decoded once). */
  text?: string;
  violations: FrameViolation[];
}

/** Decodes one frame's bytes, given the shell's framing fault if any. Never throws. */
export function decodeFrame(bytes: Uint8Array, fault?: FramingFault): DecodedFrame {
  if (fault === 'too-large') {
    return {
      kind: 'unparseable',
      layer: 'bytes',
      violations: [
        {
          code: 'frame-too-large',
          message: `the frame exceeded the ${DEFAULT_MAX_FRAME_BYTES}-byte cap; its bytes were dropped`,
        },
      ],
    };
  }
  const decoded = decodeText(bytes);
  if (fault === 'unterminated') {
    // Answered as its content deserves (a harness that forgot the newline still gets its reply),
    // but recorded: the protocol requires every frame to end with a newline.
    decoded.violations.unshift({
      code: 'unterminated-frame',
      message: 'the input ended inside a frame: its line had no terminating newline',
    });
  }
  return decoded;
}

function decodeText(bytes: Uint8Array): DecodedFrame {
  const line = decodeLine(bytes, strictUtf8);
  if (line.kind === 'fault') {
    const code: ViolationCode =
      line.code === 'invalid-utf8' ? 'invalid-utf8' : line.code === 'empty-line' ? 'empty-frame' : 'not-json';
    return { kind: 'unparseable', layer: 'bytes', violations: [{ code, message: line.message }] };
  }
  const check = checkRequestEnvelope(line.value);
  if (check.kind === 'invalid') {
    return {
      kind: 'unparseable',
      layer: 'envelope',
      text: line.text,
      violations: check.violations.map((v) => ({
        code: 'invalid-envelope',
        message: v.message,
        path: v.path,
      })),
    };
  }
  const out: DecodedFrame = { kind: check.kind, method: check.method, text: line.text, violations: [] };
  if (check.kind === 'request') out.id = check.id;
  readParams(check.params, out);
  if (check.kind === 'request' && check.method === OBSERVE_METHOD) {
    out.violations.push({
      code: 'notification-with-id',
      message: 'a hooks/observe notification must not carry an id',
      path: '$.id',
    });
  }
  // The id and the event id are usually the same text: the record keeps one string for both.
  if (check.kind === 'request' && out.eventId === check.id) out.eventId = check.id;
  else if (check.kind === 'request' && check.method === INTERCEPT_METHOD) {
    out.violations.push({
      code: 'id-mismatch',
      message: 'the intercept request id must equal params.event.id',
      path: '$.id',
    });
  }
  return out;
}

function readParams(params: JsonValue | undefined, out: DecodedFrame): void {
  if (!isJsonObject(params)) return;
  if (typeof params.protocolVersion === 'string') out.protocolVersion = params.protocolVersion;
  const event = params.event;
  if (!isJsonObject(event)) return;
  out.event = event;
  if (typeof event.id === 'string') out.eventId = event.id;
  if (typeof event.type === 'string') out.eventType = event.type;
  const tool = event.tool;
  if (isJsonObject(tool) && typeof tool.name === 'string') out.toolName = tool.name;
}
