import {
  isJsonObject,
  jsonStringText,
  type JsonObject,
  type JsonValue,
  type Violation,
} from '../protocol/json.js';
import { validateToolBeforeEvent } from '../protocol/messages.js';
import type { ToolBeforeEvent } from '../protocol/wire-types.js';

/** What the caller knows about an imminent tool call; the harness fills in the envelope. */
export interface InvokeInput {
  session?: JsonObject & { id: string };
  call: { id: string; synthesized?: boolean };
  tool: { name: string; input: JsonObject; kind?: string; origin?: 'native' | 'mcp'; mcp?: JsonObject };
  /** Event id; a fresh one when absent. Stable across retries either way. */
  eventId?: string;
  /** RFC 3339 time; the clock's wall time when absent. */
  time?: string;
  /** Tool path; `native` when absent. */
  path?: string;
}

export interface EnvelopeDefaults {
  source: string;
  /** `JSON.stringify(source)`, made once by the caller (computed per call when absent). */
  sourceText?: string;
  newEventId: () => string;
  /** True when no id `newEventId` makes needs a JSON escape (the harness's `evt_<uuid>` ids). */
  plainEventIds?: boolean;
  wallNow: () => number;
}

/** The wall time last formatted and its text: calls within one millisecond share it. */
let lastWallMs = Number.NaN;
let lastWallText = '';

/** RFC 3339 text of a wall time in ms (`toISOString` costs about half a microsecond per call). */
function wallTimeText(ms: number): string {
  if (ms !== lastWallMs) {
    lastWallText = new Date(ms).toISOString();
    lastWallMs = ms;
  }
  return lastWallText;
}

/**
 * Builds the `tool.before` event for one call and validates it (AHP-TB-001). Input comes from
 * callers and drivers as plain JSON, so nothing is trusted to match its declared type. `text` is
 * `JSON.stringify(event)`, made from its parts (the envelope fields need no stringify call), and
 * `idText` is `JSON.stringify(event.id)`.
 */
export function buildToolBeforeEvent(
  input: InvokeInput,
  defaults: EnvelopeDefaults,
):
  | { ok: true; event: ToolBeforeEvent; text: string; idText: string }
  | { ok: false; violations: Violation[] } {
  const raw = input as unknown as Record<string, JsonValue | undefined>;
  if (!isJsonObject(raw as JsonValue)) {
    return {
      ok: false,
      violations: [{ path: '$', message: 'the invoke input must be an object', requirement: 'AHP-TB-001' }],
    };
  }
  const tool = isJsonObject(raw.tool) ? raw.tool : {};
  const givenId = typeof raw.eventId === 'string';
  const id = givenId ? (raw.eventId as string) : defaults.newEventId();
  const givenTime = typeof raw.time === 'string';
  const time = givenTime ? (raw.time as string) : wallTimeText(defaults.wallNow());
  const call = raw.call ?? null;
  const path = raw.path ?? 'native';
  const session = raw.session;
  const eventTool: JsonObject = { origin: 'native', ...tool };
  // One literal per shape, keys in wire order: cheaper than adding them one by one.
  const event: JsonObject =
    session === undefined
      ? { id, source: defaults.source, type: 'tool.before', time, call, tool: eventTool, path }
      : { id, source: defaults.source, type: 'tool.before', time, session, call, tool: eventTool, path };
  const violations = validateToolBeforeEvent(event);
  if (typeof raw.eventId !== 'string' && raw.eventId !== undefined) {
    violations.push({ path: '$.eventId', message: 'eventId must be a string', requirement: 'AHP-TB-001' });
  }
  if (violations.length > 0) return { ok: false, violations };
  // The ids and times made here need no escape (toISOString writes digits and -+:.TZ only).
  const idText = givenId || defaults.plainEventIds !== true ? jsonStringText(id) : `"${id}"`;
  const timeText = givenTime ? jsonStringText(time) : `"${time}"`;
  return {
    ok: true,
    event: event as unknown as ToolBeforeEvent,
    text: eventText(event, idText, timeText, defaults),
    idText,
  };
}

/**
 * `JSON.stringify(event)` of a validated event, from its parts: each member's text is what
 * stringify writes for it inside the event, except for a member with its own `toJSON` (it would
 * be called with the member's key there, with '' alone), so then the whole is stringified.
 */
function eventText(event: JsonObject, idText: string, timeText: string, defaults: EnvelopeDefaults): string {
  const { session, call, tool } = event as Record<string, unknown>;
  if (hasToJson(session) || hasToJson(call) || hasToJson(tool)) return JSON.stringify(event);
  const source = defaults.sourceText ?? JSON.stringify(defaults.source);
  const head = `{"id":${idText},"source":${source},"type":"tool.before","time":${timeText}`;
  const sessionText = session === undefined ? '' : `,"session":${JSON.stringify(session)}`;
  const path = event.path as string;
  return `${head}${sessionText},"call":${JSON.stringify(call)},"tool":${JSON.stringify(tool)},"path":${path === 'native' ? '"native"' : jsonStringText(path)}}`;
}

function hasToJson(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  );
}
