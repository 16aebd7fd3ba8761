import {
  childPath,
  isJsonObject,
  violationSink,
  type JsonObject,
  type JsonValue,
  type Violation,
} from './json.js';
import type { EffectType, ModifyTarget } from './wire-types.js';

/** The 19 events of the draft that may be delivered through `hooks/intercept`. */
export const INTERCEPTABLE_EVENTS = [
  'tool.before',
  'tool.after',
  'session.start',
  'config.change.before',
  'turn.start',
  'turn.finish.before',
  'model.request.before',
  'model.switch.before',
  'tool.permission.request',
  'tool.batch.after',
  'context.compact.before',
  'context.compact.after',
  'task.change.before',
  'user.elicitation.request',
  'user.elicitation.result',
  'user.message.inbound',
  'user.message.outbound',
  'workspace.change.before',
  'model.response.after',
] as const;

/** The 13 events of the draft that only ever travel as `hooks/observe` notifications. */
export const OBSERVATION_ONLY_EVENTS = [
  'session.end',
  'config.change.after',
  'turn.end',
  'turn.progress',
  'model.error',
  'model.switch.after',
  'tool.permission.resolved',
  'tool.progress',
  'task.change.after',
  'user.attention',
  'workspace.change.after',
  'file.changed',
  'hook.failure',
] as const;

export type InterceptableEvent = (typeof INTERCEPTABLE_EVENTS)[number];
export type ObservationOnlyEvent = (typeof OBSERVATION_ONLY_EVENTS)[number];
export type EventType = InterceptableEvent | ObservationOnlyEvent;

/** All 32 event types of the draft catalogue. */
export const ALL_EVENTS: readonly EventType[] = [...INTERCEPTABLE_EVENTS, ...OBSERVATION_ONLY_EVENTS];

/** True for one of the 32 known event types. */
export function isKnownEvent(type: string): type is EventType {
  return (ALL_EVENTS as readonly string[]).includes(type);
}

/** True for an event that may be intercepted. */
export function isInterceptableEvent(type: string): type is InterceptableEvent {
  return (INTERCEPTABLE_EVENTS as readonly string[]).includes(type);
}

/** True for a known event that is observation-only. */
export function isObservationOnlyEvent(type: string): type is ObservationOnlyEvent {
  return (OBSERVATION_ONLY_EVENTS as readonly string[]).includes(type);
}

/** What a boundary can ever accept: the upper bound every per-request advertisement must narrow. */
export interface EventEffectBounds {
  effects: readonly EffectType[];
  modifyTargets: readonly ModifyTarget[];
  flowOperations: readonly ('stop' | 'continue')[];
}

function bounds(
  effects: EffectType[],
  modifyTargets: ModifyTarget[] = [],
  flowOperations: ('stop' | 'continue')[] = [],
): EventEffectBounds {
  // modify and flow appear in `effects` exactly when they have targets/operations.
  const all = [...effects];
  if (modifyTargets.length > 0) all.push('modify');
  if (flowOperations.length > 0) all.push('flow');
  return { effects: all, modifyTargets, flowOperations };
}

/** Per-event effect bounds of the draft (capabilities schema `$defs`, protocol reference §2.4). */
export const EVENT_EFFECT_BOUNDS: Readonly<Record<InterceptableEvent, EventEffectBounds>> = {
  'tool.before': bounds(['deny', 'allow', 'ask', 'inject', 'return', 'message'], ['input'], ['stop']),
  'tool.after': bounds(['inject', 'message'], ['output'], ['stop', 'continue']),
  'tool.permission.request': bounds(['allow', 'deny', 'message'], ['input'], ['stop']),
  'tool.batch.after': bounds(['inject', 'message'], [], ['stop']),
  'session.start': bounds(['inject', 'message']),
  'config.change.before': bounds(['deny', 'message']),
  'turn.start': bounds(['deny', 'inject', 'message'], ['prompt'], ['stop']),
  'turn.finish.before': bounds(['message'], ['response'], ['stop', 'continue']),
  'model.request.before': bounds(['deny', 'inject', 'return', 'message'], ['request'], ['stop']),
  'model.response.after': bounds(['message'], ['response'], ['stop']),
  'model.switch.before': bounds(['deny', 'message'], [], ['stop']),
  'context.compact.before': bounds(['deny', 'return', 'inject', 'message'], ['instructions']),
  'context.compact.after': bounds(['inject', 'message'], ['summary']),
  'task.change.before': bounds(['deny', 'message']),
  'user.elicitation.request': bounds(['deny', 'return', 'message']),
  'user.elicitation.result': bounds(['message'], ['content']),
  'user.message.inbound': bounds(['deny', 'message'], ['prompt']),
  'user.message.outbound': bounds(['deny', 'message'], ['content']),
  'workspace.change.before': bounds(['deny', 'message'], ['workspace']),
};

/** The bounds for an event type, or undefined when the event cannot be intercepted. */
export function effectBoundsFor(eventType: string): EventEffectBounds | undefined {
  return isInterceptableEvent(eventType) ? EVENT_EFFECT_BOUNDS[eventType] : undefined;
}

const PATTERN = /^(?:\*|[a-z][a-z0-9]*\.\*)$/;

/** True for a syntactically valid subscription wildcard (`*` or `family.*`). */
export function isEventWildcard(pattern: string): boolean {
  return PATTERN.test(pattern);
}

/** Matches a subscription event selector against an event type: exact, `family.*` or `*`. */
export function eventMatches(pattern: string, type: string): boolean {
  if (pattern === '*') return true;
  if (PATTERN.test(pattern)) return type.startsWith(pattern.slice(0, -1));
  return pattern === type;
}

/** Event families that exist in the catalogue (the first dotted segment). */
export const EVENT_FAMILIES: readonly string[] = [
  ...new Set(ALL_EVENTS.map((e) => e.split('.')[0] as string)),
];

// RFC 3339 date-time: the `T` separator and an explicit offset or `Z` are required; compact ISO forms are not.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** The last text `isRfc3339` accepted: a harness stamps many events within one millisecond. */
let lastRfc3339 = '';

/** True for an RFC 3339 date-time with in-range fields. */
export function isRfc3339(value: string): boolean {
  if (value === lastRfc3339) return true;
  const m = RFC3339.exec(value);
  if (!m) return false;
  const month = Number(m[2]);
  const day = Number(m[3]);
  const valid =
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= 31 &&
    Number(m[4]) <= 23 &&
    Number(m[5]) <= 59 &&
    Number(m[6]) <= 60;
  if (valid) lastRfc3339 = value;
  return valid;
}

/** The last URI `isAbsoluteUri` accepted: a harness checks its own `source` on every event. */
let lastAbsoluteUri = '';

/** True for an absolute URI (a scheme, then something). */
export function isAbsoluteUri(value: string): boolean {
  if (value === lastAbsoluteUri) return true;
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(value)) return false;
  try {
    new URL(value);
  } catch {
    return false;
  }
  lastAbsoluteUri = value;
  return true;
}

const REVERSE_DNS = /^(?:[A-Za-z][A-Za-z0-9_-]*\.)+[A-Za-z][A-Za-z0-9_-]*$/;

/** True for a reverse-DNS name, as used for backend ids, extension keys and deny codes. */
export function isReverseDns(value: string): boolean {
  return REVERSE_DNS.test(value);
}

/** Checks an `extensions` object: every key reverse-DNS (AHP-EXT-001). */
export function validateExtensions(value: JsonValue | undefined, path: string): Violation[] {
  if (value === undefined) return [];
  if (!isJsonObject(value))
    return [{ path, message: 'extensions must be an object', requirement: 'AHP-EXT-001' }];
  return Object.keys(value)
    .filter((k) => !isReverseDns(k))
    .map((k) => ({
      path: childPath(path, k),
      message: `extension key "${k}" is not a reverse-DNS name`,
      requirement: 'AHP-EXT-001',
    }));
}

function nonEmptyString(v: JsonValue | undefined): v is string {
  return typeof v === 'string' && v.length > 0;
}

/** Checks the fields every event carries (§2.2 common envelope) and the optional session block. */
export function validateEventEnvelope(
  value: JsonValue,
  path = '$',
  requirement = 'AHP-RPC-001',
): Violation[] {
  const out: Violation[] = [];
  const v = violationSink(out, requirement);
  if (!isJsonObject(value)) {
    v(path, 'the event must be an object');
    return out;
  }
  if (!nonEmptyString(value.id)) v(childPath(path, 'id'), 'event id must be a non-empty string');
  if (typeof value.source !== 'string' || !isAbsoluteUri(value.source)) {
    v(childPath(path, 'source'), 'source must be an absolute URI');
  }
  if (typeof value.type !== 'string') v(childPath(path, 'type'), 'event type must be a string');
  else if (!isKnownEvent(value.type)) v(childPath(path, 'type'), `unknown event type "${value.type}"`);
  if (typeof value.time !== 'string' || !isRfc3339(value.time)) {
    v(childPath(path, 'time'), 'time must be an RFC 3339 date-time with a T separator and an offset or Z');
  }
  if ('parentEventId' in value && !nonEmptyString(value.parentEventId)) {
    v(childPath(path, 'parentEventId'), 'parentEventId must be a non-empty string');
  }
  if ('synthesized' in value && typeof value.synthesized !== 'boolean') {
    v(childPath(path, 'synthesized'), 'synthesized must be a boolean');
  }
  if ('gaps' in value)
    out.push(...validateGaps(value.gaps as JsonValue, childPath(path, 'gaps'), requirement));
  if ('session' in value)
    out.push(...validateSession(value.session as JsonValue, childPath(path, 'session'), requirement));
  if (value.extensions !== undefined)
    out.push(...validateExtensions(value.extensions, childPath(path, 'extensions')));
  return out;
}

function validateGaps(value: JsonValue, path: string, requirement: string): Violation[] {
  if (!Array.isArray(value)) return [{ path, message: 'gaps must be an array', requirement }];
  const out: Violation[] = [];
  value.forEach((g, i) => {
    if (!isJsonObject(g) || typeof g.path !== 'string' || typeof g.reason !== 'string') {
      out.push({
        path: childPath(path, i),
        message: 'a gap is {path, reason} with string values',
        requirement,
      });
    }
  });
  return out;
}

function validateSession(value: JsonValue, path: string, requirement: string): Violation[] {
  const out: Violation[] = [];
  if (!isJsonObject(value)) return [{ path, message: 'session must be an object', requirement }];
  if (!nonEmptyString(value.id))
    out.push({ path: childPath(path, 'id'), message: 'session.id is required', requirement });
  if ('workspaceRoots' in value) {
    const roots = value.workspaceRoots;
    if (!Array.isArray(roots) || roots.some((r) => typeof r !== 'string')) {
      out.push({
        path: childPath(path, 'workspaceRoots'),
        message: 'workspaceRoots must be a string array',
        requirement,
      });
    }
  }
  for (const key of ['cwd', 'model'] as const) {
    if (key in value && typeof value[key] !== 'string') {
      out.push({ path: childPath(path, key), message: `session.${key} must be a string`, requirement });
    }
  }
  if ('synthesized' in value && typeof value.synthesized !== 'boolean') {
    out.push({ path: childPath(path, 'synthesized'), message: 'synthesized must be a boolean', requirement });
  }
  if ('agent' in value && !(isJsonObject(value.agent) && nonEmptyString((value.agent as JsonObject).id))) {
    out.push({ path: childPath(path, 'agent'), message: 'session.agent must be {id, type?}', requirement });
  }
  return out;
}
