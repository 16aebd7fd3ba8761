import { isJsonObject, type JsonObject, type JsonValue, type Violation } from '../protocol/json.js';
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
  newEventId: () => string;
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
 * callers and drivers as plain JSON, so nothing is trusted to match its declared type.
 */
export function buildToolBeforeEvent(
  input: InvokeInput,
  defaults: EnvelopeDefaults,
): { ok: true; event: ToolBeforeEvent } | { ok: false; violations: Violation[] } {
  const raw = input as unknown as Record<string, JsonValue | undefined>;
  if (!isJsonObject(raw as JsonValue)) {
    return {
      ok: false,
      violations: [{ path: '$', message: 'the invoke input must be an object', requirement: 'AHP-TB-001' }],
    };
  }
  const tool = isJsonObject(raw.tool) ? raw.tool : {};
  const id = typeof raw.eventId === 'string' ? raw.eventId : defaults.newEventId();
  const time = typeof raw.time === 'string' ? raw.time : wallTimeText(defaults.wallNow());
  const call = raw.call ?? null;
  const path = raw.path ?? 'native';
  // One literal per shape, keys in wire order: cheaper than adding them one by one.
  const event: JsonObject =
    raw.session === undefined
      ? {
          id,
          source: defaults.source,
          type: 'tool.before',
          time,
          call,
          tool: { origin: 'native', ...tool },
          path,
        }
      : {
          id,
          source: defaults.source,
          type: 'tool.before',
          time,
          session: raw.session,
          call,
          tool: { origin: 'native', ...tool },
          path,
        };
  const violations = validateToolBeforeEvent(event);
  if (typeof raw.eventId !== 'string' && raw.eventId !== undefined) {
    violations.push({ path: '$.eventId', message: 'eventId must be a string', requirement: 'AHP-TB-001' });
  }
  if (violations.length > 0) return { ok: false, violations };
  return { ok: true, event: event as unknown as ToolBeforeEvent };
}
