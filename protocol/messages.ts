import { validateCapabilities } from './capabilities.js';
import { checkEffects, checkEffectShape } from './effects.js';
import { validateEvent } from './event-validation.js';
import { isInterceptableEvent, isObservationOnlyEvent, validateExtensions } from './events.js';
import {
  childPath,
  isJsonObject,
  jsonStringText,
  type JsonObject,
  type JsonValue,
  type Violation,
} from './json.js';
import { checkRequestEnvelope, checkResponseEnvelope, idsEqual } from './jsonrpc.js';
import {
  INTERCEPT_METHOD,
  OBSERVE_METHOD,
  PROTOCOL_VERSION,
  type Capabilities,
  type Effect,
  type EventEnvelope,
  type InterceptParams,
  type InterceptRequest,
  type JsonRpcId,
  type ObserveNotification,
} from './wire-types.js';

export { validateToolAfterEvent, validateToolBeforeEvent } from './tool-events.js';
export { validateEvent } from './event-validation.js';

/** The judgement of an intercept `result`: accepted effects, or the failure class and why. */
export type ResultCheck =
  | { ok: true; effects: Effect[]; unknownEnvelopeFields: string[] }
  | {
      ok: false;
      failureClass: 'unsupported' | 'missing-fields' | 'invalid-effects';
      violations: Violation[];
    };

/** The boundary an intercept result is judged at. */
export interface ResultContext {
  protocolVersion: string;
  eventType: string;
  capabilities: Capabilities;
  /** The intercepted event, for contextual value rules. */
  event?: JsonValue;
}

const RESULT_FIELDS = new Set(['protocolVersion', 'effects', 'extensions']);

/** The result's fields the protocol does not define (a loop: no filter closure per reply). */
function unknownFields(result: JsonObject): string[] {
  const unknown: string[] = [];
  for (const key of Object.keys(result)) if (!RESULT_FIELDS.has(key)) unknown.push(key);
  return unknown;
}

/** A failed result check (module level: it runs on every reply). */
function fail(failureClass: 'unsupported' | 'missing-fields' | 'invalid-effects', violations: Violation[]) {
  return { ok: false, failureClass, violations } as const;
}

/**
 * Judges an intercept result in a fixed order: shape and required fields (`missing-fields`),
 * then the version (`unsupported`), then the effect list atomically (`invalid-effects`: one bad
 * member rejects all, a valid deny beside it included). Unknown envelope fields are ignored
 * (AHP-CORE-003) but listed.
 *
 * Decision on `manifest`: discovery and interception results are never combined, so a result
 * carrying `manifest` is not an intercept result at all. It is judged `missing-fields` (a
 * result-shape failure, like a non-array `effects`), never `invalid-effects`, because no effect
 * is at fault and the effects themselves are not looked at. A present `extensions` that is not an
 * object with reverse-DNS keys is a recognized field with a bad value: also `missing-fields`.
 */
export function checkInterceptResult(result: JsonValue, ctx: ResultContext): ResultCheck {
  if (!isJsonObject(result)) {
    return fail('missing-fields', [
      { path: '$.result', message: 'result must be an object', requirement: 'AHP-DEC-001' },
    ]);
  }
  const shape: Violation[] = [];
  if (typeof result.protocolVersion !== 'string') {
    shape.push({
      path: '$.result.protocolVersion',
      message: 'result.protocolVersion is required',
      requirement: 'AHP-VER-001',
    });
  }
  if (!Array.isArray(result.effects)) {
    shape.push({
      path: '$.result.effects',
      message: 'result.effects must be an array',
      requirement: 'AHP-DEC-001',
    });
  }
  if (Object.hasOwn(result, 'manifest')) {
    shape.push({
      path: '$.result.manifest',
      message: 'an intercept result must not carry a discovery manifest',
      requirement: 'AHP-DEC-001',
    });
  }
  if (result.extensions !== undefined)
    shape.push(...validateExtensions(result.extensions, '$.result.extensions'));
  if (shape.length > 0) return fail('missing-fields', shape);
  if (result.protocolVersion !== ctx.protocolVersion) {
    return fail('unsupported', [
      {
        path: '$.result.protocolVersion',
        message: `result protocolVersion "${String(result.protocolVersion)}" is not the request's "${ctx.protocolVersion}"`,
        requirement: 'AHP-VER-001',
      },
    ]);
  }
  const effects = result.effects as JsonValue[];
  // `[]`, the common answer, has nothing to check: skip building the effect context.
  if (effects.length > 0) {
    const problems = checkEffects(effects, { ...ctx, path: '$.result.effects' });
    if (problems.length > 0) return fail('invalid-effects', problems);
  }
  return {
    ok: true,
    effects: result.effects as unknown as Effect[],
    unknownEnvelopeFields: unknownFields(result),
  };
}

/** Builds a `hooks/intercept` request whose JSON-RPC id is the event id (AHP-CORE-004). */
export function buildInterceptRequest(params: InterceptParams): InterceptRequest {
  return { jsonrpc: '2.0', id: params.event.id, method: INTERCEPT_METHOD, params };
}

/** Stand-ins for the id and the event while the constant text of a request is made. */
const ID_MARK = '\u0000id';
const EVENT_MARK = '\u0000event';

/**
 * Serializes `hooks/intercept` requests for one protocol version and capability set. The text
 * around the id and the event is made once, from `JSON.stringify` of a request holding marks in
 * their places, so a request costs a stringify of its event and nothing else, and each frame is
 * byte-identical to `JSON.stringify(buildInterceptRequest(params))` (V8's stringify here costs
 * about 0.1 µs per object, the envelope's three included).
 */
export class InterceptFrames {
  readonly protocolVersion: string;
  readonly capabilities: Capabilities;
  /** The text before the id, between the id and the event, and after the event; undefined if unsplittable. */
  readonly #parts: readonly [string, string, string] | undefined;

  constructor(protocolVersion: string, capabilities: Capabilities) {
    this.protocolVersion = protocolVersion;
    this.capabilities = capabilities;
    const request = buildInterceptRequest({
      protocolVersion,
      event: { id: ID_MARK } as EventEnvelope,
      capabilities,
    });
    (request.params as { event: unknown }).event = EVENT_MARK;
    const text = JSON.stringify(request);
    const [head, rest, ...moreIds] = text.split(JSON.stringify(ID_MARK));
    const [middle, tail, ...moreEvents] = (rest ?? '').split(JSON.stringify(EVENT_MARK));
    // Only a version or capabilities that themselves hold a mark could leave it unsplittable.
    this.#parts =
      head !== undefined &&
      middle !== undefined &&
      tail !== undefined &&
      moreIds.length === 0 &&
      moreEvents.length === 0
        ? [head, middle, tail]
        : undefined;
  }

  /**
   * The request frame (no newline) for `event`, whose id is the request's id. When the event's
   * JSON text is already known, pass it (`eventText` must be `JSON.stringify(event)`, and
   * `idText`, when given, `JSON.stringify(event.id)`): the event is not serialized again.
   */
  frame(event: EventEnvelope, eventText?: string, idText?: string, state?: JsonObject): string {
    const parts = this.#parts;
    // A non-string id is left to stringify (it omits an undefined one); validated events never have one.
    if (parts === undefined || typeof event.id !== 'string') {
      const params: InterceptParams = {
        protocolVersion: this.protocolVersion,
        event,
        capabilities: this.capabilities,
      };
      if (state !== undefined) params.state = state;
      return JSON.stringify(buildInterceptRequest(params));
    }
    // `state` is the last member of params: it goes before the two closing braces.
    const tail =
      state === undefined ? parts[2] : `${parts[2].slice(0, -2)},"state":${JSON.stringify(state)}}}`;
    return (
      parts[0] + (idText ?? jsonStringText(event.id)) + parts[1] + (eventText ?? JSON.stringify(event)) + tail
    );
  }
}

/** Builds a `hooks/observe` notification (no id). */
export function buildObserveNotification(params: {
  protocolVersion: string;
  event: EventEnvelope;
}): ObserveNotification {
  return {
    jsonrpc: '2.0',
    method: OBSERVE_METHOD,
    params: { protocolVersion: params.protocolVersion, event: params.event },
  };
}

function checkVersion(params: Record<string, JsonValue>, expected: string, out: Violation[]): void {
  if (params.protocolVersion !== expected) {
    out.push({
      path: '$.params.protocolVersion',
      message: `params.protocolVersion must be "${expected}"`,
      requirement: 'AHP-VER-001',
    });
  }
}

/**
 * Validates a whole `hooks/intercept` request: envelope, a string id equal to `event.id`
 * (AHP-CORE-004), version, an interceptable event (tool.before in depth), capabilities for that
 * boundary, extensions.
 */
export function validateInterceptRequest(
  value: JsonValue,
  protocolVersion: string = PROTOCOL_VERSION,
): Violation[] {
  const env = checkRequestEnvelope(value);
  if (env.kind === 'invalid') return env.violations;
  const out: Violation[] = [];
  if (env.kind === 'notification') {
    out.push({
      path: '$.id',
      message: 'hooks/intercept is a request and needs an id',
      requirement: 'AHP-RPC-002',
    });
  } else if (typeof env.id !== 'string') {
    out.push({
      path: '$.id',
      message: 'an intercept id must be a string (it equals event.id)',
      requirement: 'AHP-CORE-004',
    });
  }
  if (env.method !== INTERCEPT_METHOD) {
    out.push({
      path: '$.method',
      message: `method must be "${INTERCEPT_METHOD}"`,
      requirement: 'AHP-RPC-002',
    });
  }
  const params = env.params;
  if (!isJsonObject(params)) {
    out.push({ path: '$.params', message: 'params must be an object', requirement: 'AHP-RPC-001' });
    return out;
  }
  checkVersion(params, protocolVersion, out);
  const event = params.event;
  if (!isJsonObject(event)) {
    out.push({ path: '$.params.event', message: 'params.event is required', requirement: 'AHP-RPC-001' });
  } else {
    out.push(...validateEvent(event, '$.params.event'));
    const type = typeof event.type === 'string' ? event.type : '';
    if (isObservationOnlyEvent(type)) {
      out.push({
        path: '$.params.event.type',
        message: `${type} is observation-only and never intercepted`,
        requirement: 'AHP-RPC-002',
      });
    }
    if (env.kind === 'request' && !idsEqual(env.id, (event.id ?? null) as JsonRpcId)) {
      out.push({
        path: '$.id',
        message: 'the request id must equal params.event.id',
        requirement: 'AHP-CORE-004',
      });
    }
    if (!('capabilities' in params)) {
      out.push({
        path: '$.params.capabilities',
        message: 'params.capabilities is required',
        requirement: 'AHP-CAP-002',
      });
    } else if (isInterceptableEvent(type)) {
      out.push(...validateCapabilities(params.capabilities as JsonValue, type, '$.params.capabilities'));
    }
  }
  out.push(...validateExtensions(params.extensions, '$.params.extensions'));
  if ('state' in params && !isJsonObject(params.state)) {
    out.push({ path: '$.params.state', message: 'state must be an object', requirement: 'AHP-CORE-003' });
  }
  return out;
}

/** Validates a `hooks/observe` notification: no id (AHP-RPC-002), version, any known event. */
export function validateObserveNotification(
  value: JsonValue,
  protocolVersion: string = PROTOCOL_VERSION,
): Violation[] {
  const env = checkRequestEnvelope(value);
  if (env.kind === 'invalid') return env.violations;
  const out: Violation[] = [];
  if (env.kind === 'request') {
    out.push({
      path: '$.id',
      message: 'a hooks/observe notification must not carry an id',
      requirement: 'AHP-RPC-002',
    });
  }
  if (env.method !== OBSERVE_METHOD) {
    out.push({ path: '$.method', message: `method must be "${OBSERVE_METHOD}"`, requirement: 'AHP-RPC-002' });
  }
  const params = env.params;
  if (!isJsonObject(params)) {
    out.push({ path: '$.params', message: 'params must be an object', requirement: 'AHP-RPC-001' });
    return out;
  }
  checkVersion(params, protocolVersion, out);
  if (!isJsonObject(params.event)) {
    out.push({ path: '$.params.event', message: 'params.event is required', requirement: 'AHP-RPC-001' });
  } else out.push(...validateEvent(params.event, '$.params.event', 'AHP-RPC-002'));
  return out;
}

/** Optional request context for judging a response. */
export interface ResponseContext {
  protocolVersion?: string;
  /** The request id the response must echo. */
  requestId?: JsonRpcId;
  /** With both of these the effects are judged at the boundary; without them only their shape. */
  eventType?: string;
  capabilities?: Capabilities;
  event?: JsonValue;
}

/**
 * Validates an intercept response (for `validate` and fixtures): the envelope, the echoed id when
 * known, and the result. Without a boundary (event type and capabilities) effects are judged by
 * shape alone: vocabulary, fields and value types, not advertisement.
 */
export function validateInterceptResponse(value: JsonValue, ctx: ResponseContext = {}): Violation[] {
  const env = checkResponseEnvelope(value);
  if (env.kind === 'invalid') return env.violations;
  const out: Violation[] = [];
  if (ctx.requestId !== undefined && !idsEqual(env.id, ctx.requestId)) {
    out.push({
      path: '$.id',
      message: 'the response id does not match the request id',
      requirement: 'AHP-CORE-004',
    });
  }
  if (env.kind === 'error') return out;
  const protocolVersion = ctx.protocolVersion ?? PROTOCOL_VERSION;
  if (ctx.eventType !== undefined && ctx.capabilities !== undefined) {
    const check = checkInterceptResult(env.result, {
      protocolVersion,
      eventType: ctx.eventType,
      capabilities: ctx.capabilities,
      ...(ctx.event !== undefined ? { event: ctx.event } : {}),
    });
    if (!check.ok) out.push(...check.violations);
    return out;
  }
  const result = env.result;
  // Context-free: reuse the ordered judgement with a permissive boundary, then keep only the
  // findings that do not depend on advertisement or per-event bounds.
  const shapeOnly = checkInterceptResult(result, {
    protocolVersion,
    eventType: '',
    capabilities: { effects: [] },
  });
  if (shapeOnly.ok) return out;
  if (shapeOnly.failureClass !== 'invalid-effects') return [...out, ...shapeOnly.violations];
  const effects = (result as { effects: JsonValue[] }).effects;
  effects.forEach((effect, i) => {
    const p = childPath('$.result.effects', i);
    const shapeCtx = {
      ...(ctx.eventType !== undefined ? { eventType: ctx.eventType } : {}),
      ...(ctx.event !== undefined ? { event: ctx.event } : {}),
    };
    out.push(...checkEffectShape(effect, i, p, shapeCtx));
  });
  return out;
}
