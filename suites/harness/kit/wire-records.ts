/**
 * The mock's recordings of one call, decoded once: each inbound frame with its JSON-RPC id, event
 * identities and HTTP headers, plus what the mock did and wrote in answer. Pure.
 */
import { isJsonObject, type JsonValue } from '../../../protocol/json.js';
import {
  actionsFor,
  decodeBytes,
  type Behaviour,
  type Bytes,
  type InboundKind,
  type RecordEntry,
  type RecordedAction,
} from '../../../mock-backend/index.js';

/** One frame the mock received for a call, decoded. */
export interface WireFrame {
  delivery: number;
  kind: InboundKind;
  method?: string;
  transport: string;
  connectionId: string;
  /**
   * Arrival on the monotonic clock of the process that received it, ms: comparable between the
   * frames of one connection only (each per_event process counts from its own start).
   */
  atMs: number;
  /** Arrival on the wall clock, ms: comparable between processes of one machine. */
  atWallMs: number;
  /** The exact bytes as recorded. */
  bytes: Bytes;
  /** True when `id` is present in the frame. */
  hasId: boolean;
  jsonrpcId?: JsonValue;
  eventId?: string;
  callId?: string;
  /** `event.tool.callId`, where revision "0.1" kept the call id (read so matching never depends on it). */
  toolCallId?: string;
  sessionId?: string;
  /** `params.capabilities.effects` of a request. */
  advertised?: string[];
  /** The `authorization` header of an HTTP request. */
  authorization?: string;
  /** What the mock carried out, and the actions it planned (writes included). */
  behaviour: Behaviour;
  actions: RecordedAction[];
  /** When the mock began its first write in answer, on the clock of `atMs`; absent while due or never. */
  firstWriteMs?: number;
}

/** When the mock carried out the first write it planned for each delivery (absent: not yet, or never). */
function firstWrites(entries: readonly RecordEntry[]): Map<number, number | undefined> {
  const writes = new Map<number, number | undefined>();
  for (const entry of entries) {
    if (entry.type === 'outbound' && entry.action.type === 'write' && !writes.has(entry.delivery)) {
      writes.set(entry.delivery, entry.performedAt?.monotonic);
    }
  }
  return writes;
}

/** The frames of one call (attributed by kit/step-identity.ts). */
export interface CaseRecords {
  frames: WireFrame[];
  /** The intercept requests among them. */
  requests: WireFrame[];
  /** The observe notifications among them. */
  notifications: WireFrame[];
}

function read(value: JsonValue | undefined, ...path: string[]): JsonValue | undefined {
  let current = value;
  for (const key of path) {
    if (!isJsonObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

/** The text of recorded bytes, decoded as UTF-8 (an invalid sequence becomes U+FFFD). */
export function utf8Text(bytes: Bytes): string {
  return 'text' in bytes ? bytes.text : Buffer.from(decodeBytes(bytes)).toString('utf8');
}

function parse(bytes: Bytes): JsonValue | undefined {
  try {
    return JSON.parse(utf8Text(bytes)) as JsonValue;
  } catch {
    return undefined;
  }
}

const asString = (v: JsonValue | undefined) => (typeof v === 'string' ? v : undefined);

/** Decodes every inbound entry of a recording. */
export function decodeFrames(entries: readonly RecordEntry[]): WireFrame[] {
  const frames: WireFrame[] = [];
  const writes = firstWrites(entries);
  for (const entry of entries) {
    if (entry.type !== 'inbound') continue;
    const message = parse(entry.bytes);
    const advertised = read(message, 'params', 'capabilities', 'effects');
    const frame: WireFrame = {
      delivery: entry.delivery,
      kind: entry.kind,
      transport: entry.transport,
      connectionId: entry.connectionId,
      atMs: entry.at.monotonic,
      atWallMs: entry.at.wall,
      bytes: entry.bytes,
      hasId: isJsonObject(message) && Object.hasOwn(message, 'id'),
      behaviour: entry.behaviour,
      actions: actionsFor(entries, entry.delivery),
    };
    if (entry.method !== undefined) frame.method = entry.method;
    const written = writes.get(entry.delivery);
    if (written !== undefined) frame.firstWriteMs = written;
    const id = read(message, 'id');
    if (id !== undefined) frame.jsonrpcId = id;
    const eventId = asString(read(message, 'params', 'event', 'id'));
    if (eventId !== undefined) frame.eventId = eventId;
    const callId = asString(read(message, 'params', 'event', 'call', 'id'));
    if (callId !== undefined) frame.callId = callId;
    const toolCallId = asString(read(message, 'params', 'event', 'tool', 'callId'));
    if (toolCallId !== undefined) frame.toolCallId = toolCallId;
    const sessionId = asString(read(message, 'params', 'event', 'session', 'id'));
    if (sessionId !== undefined) frame.sessionId = sessionId;
    if (Array.isArray(advertised)) frame.advertised = advertised.filter((e) => typeof e === 'string');
    const authorization = entry.http?.headers.authorization;
    if (authorization !== undefined) frame.authorization = authorization;
    frames.push(frame);
  }
  return frames;
}

/**
 * Milliseconds from `first`'s arrival to `later`'s: on the monotonic clock within a connection
 * (one process or socket), on the wall clock across them, whose clocks are not one.
 */
export function arrivalGapMs(first: WireFrame, later: WireFrame): number {
  return first.connectionId === later.connectionId && first.transport === later.transport
    ? later.atMs - first.atMs
    : later.atWallMs - first.atWallMs;
}

/**
 * The frames `belongs` picks (one step's, see kit/step-identity.ts), with the intercept requests and
 * observe notifications among them.
 */
export function recordsForCall(
  entries: readonly RecordEntry[],
  belongs: (frame: WireFrame) => boolean,
): CaseRecords {
  return recordsOf(decodeFrames(entries).filter(belongs));
}

/** Frames with the intercept requests and observe notifications among them. */
export function recordsOf(frames: WireFrame[]): CaseRecords {
  return {
    frames,
    requests: frames.filter((f) => f.method === 'hooks/intercept' && f.kind === 'request'),
    notifications: frames.filter((f) => f.method === 'hooks/observe'),
  };
}

/** The text of recorded bytes (lossy for invalid UTF-8, for display and substring checks). */
export function bytesText(bytes: Bytes): string {
  return 'text' in bytes ? bytes.text : Buffer.from(bytes.base64, 'base64').toString('latin1');
}

/** Everything the mock wrote in answer to the frames, as text. */
export function writtenText(frames: readonly WireFrame[]): string[] {
  return frames.flatMap((f) => f.actions.flatMap((a) => (a.type === 'write' ? [bytesText(a.bytes)] : [])));
}
