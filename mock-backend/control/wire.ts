/**
 * The JSON forms that travel between a stdio mock process and its control server: frames and
 * actions with their bytes as `{text}` or `{base64}`, so invalid UTF-8 crosses intact.
 */
import { isJsonObject } from '../../protocol/json.js';
import type {
  Action,
  Bytes,
  FramingFault,
  HttpMeta,
  InboundFrame,
  Instant,
  RecordedAction,
  Transport,
} from '../model.js';
import { decodeBytes, encodeBytes, recordAction } from '../recording.js';

/** An inbound frame as JSON. */
export interface WireFrame {
  bytes: Bytes;
  transport: Transport;
  connectionId: string;
  at: Instant;
  http?: HttpMeta;
  fault?: FramingFault;
}

/** A frame as JSON. */
export function frameToWire(frame: InboundFrame): WireFrame {
  const wire: WireFrame = {
    bytes: encodeBytes(frame.bytes),
    transport: frame.transport,
    connectionId: frame.connectionId,
    at: frame.at,
  };
  if (frame.http) wire.http = frame.http;
  if (frame.fault) wire.fault = frame.fault;
  return wire;
}

/** A frame back from JSON; undefined when the value is not a frame (the control server answers 400). */
export function frameFromWire(value: unknown): InboundFrame | undefined {
  if (!isJsonObject(value)) return undefined;
  const { bytes, transport, connectionId, at, http, fault } = value;
  if (!isBytes(bytes) || !isInstant(at) || typeof connectionId !== 'string') return undefined;
  if (transport !== 'stdio' && transport !== 'http' && transport !== 'msw') return undefined;
  const frame: InboundFrame = { bytes: decodeBytes(bytes), transport, connectionId, at };
  if (isJsonObject(http)) frame.http = http as unknown as HttpMeta;
  if (fault === 'too-large' || fault === 'unterminated') frame.fault = fault;
  return frame;
}

/** Actions as JSON. */
export function actionsToWire(actions: readonly Action[]): RecordedAction[] {
  return actions.map(recordAction);
}

/** Actions back from JSON (what the control server planned). */
export function actionsFromWire(actions: readonly RecordedAction[]): Action[] {
  return actions.map((a) => (a.type === 'write' ? { ...a, bytes: decodeBytes(a.bytes) } : a));
}

/**
 * An action a stdio mock process carried out, reported to the control server that planned it:
 * `epoch` and `delivery` as `/step` answered them, the action's index among them, and when the
 * process began it, on its own clock (the clock its frames' `at` is on).
 */
export interface WirePerformed {
  delivery: number;
  epoch: number;
  connectionId: string;
  index: number;
  at: Instant;
}

/** The well-formed reports of a list (a malformed one is dropped: it only loses a timestamp). */
export function performedFromWire(value: unknown): WirePerformed[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (p): p is WirePerformed =>
      isJsonObject(p) &&
      Number.isSafeInteger(p.delivery) &&
      Number.isSafeInteger(p.epoch) &&
      Number.isSafeInteger(p.index) &&
      typeof p.connectionId === 'string' &&
      isInstant(p.at),
  );
}

function isBytes(value: unknown): value is Bytes {
  return isJsonObject(value) && (typeof value.text === 'string' || typeof value.base64 === 'string');
}

function isInstant(value: unknown): value is Instant {
  return isJsonObject(value) && typeof value.monotonic === 'number' && typeof value.wall === 'number';
}
