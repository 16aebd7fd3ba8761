import { effectBoundsFor, isReverseDns } from './events.js';
import { childPath, isJsonObject, type JsonObject, type JsonValue, type Violation } from './json.js';
import { EFFECT_TYPES, MODIFY_TARGETS, type Capabilities } from './wire-types.js';

const CAP1 = 'AHP-CAP-001';
const CAP2 = 'AHP-CAP-002';

function isEffectType(v: string): boolean {
  return (EFFECT_TYPES as readonly string[]).includes(v);
}

function isNonNegativeInteger(v: JsonValue | undefined): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0;
}

/**
 * Validates `params.capabilities` for one boundary (§2.4): `effects` present and unique, each
 * item a known effect or reverse-DNS name; the option blocks well-formed and present exactly when
 * their effect is advertised; nothing beyond the per-event bounds table; and `deny` advertised
 * at `tool.before` (AHP-CAP-002). Unknown capability fields are ignored (AHP-CORE-003).
 */
export function validateCapabilities(value: JsonValue, eventType: string, path = '$'): Violation[] {
  const out: Violation[] = [];
  const v = (p: string, message: string, requirement = CAP1) => out.push({ path: p, message, requirement });
  if (!isJsonObject(value)) {
    v(path, 'capabilities must be an object', CAP2);
    return out;
  }
  const bounds = effectBoundsFor(eventType);
  const effectsPath = childPath(path, 'effects');
  const advertised = new Set<string>();
  if (!Array.isArray(value.effects)) {
    v(effectsPath, 'capabilities.effects is required and must be an array', CAP2);
  } else {
    value.effects.forEach((item, i) => {
      const p = childPath(effectsPath, i);
      if (typeof item !== 'string') return v(p, 'an advertised effect must be a string');
      if (advertised.has(item)) v(p, `effect "${item}" is advertised twice`);
      advertised.add(item);
      if (!isEffectType(item) && !isReverseDns(item)) {
        return v(p, `"${item}" is neither a draft effect type nor a reverse-DNS name`);
      }
      if (isEffectType(item) && bounds && !(bounds.effects as readonly string[]).includes(item)) {
        v(p, `effect "${item}" cannot be enforced at ${eventType}`);
      }
    });
  }
  if (!bounds) v(path, `no effects can be advertised for "${eventType}", which is not interceptable`);
  if (eventType === 'tool.before' && Array.isArray(value.effects) && !advertised.has('deny')) {
    v(effectsPath, 'a Tool Interception harness advertises deny at tool.before', CAP2);
  }

  // Consistency: each option block appears exactly when its effect name is advertised.
  for (const block of ['modify', 'flow', 'inject'] as const) {
    const present = Object.hasOwn(value, block);
    if (advertised.has(block) && !present)
      v(childPath(path, block), `"${block}" is advertised without its option block`);
    if (!advertised.has(block) && present && Array.isArray(value.effects)) {
      v(childPath(path, block), `the "${block}" option block is present but "${block}" is not advertised`);
    }
  }
  if (Object.hasOwn(value, 'modify'))
    out.push(...checkModifyBlock(value.modify, childPath(path, 'modify'), eventType));
  if (Object.hasOwn(value, 'flow'))
    out.push(...checkFlowBlock(value.flow, childPath(path, 'flow'), eventType));
  if (Object.hasOwn(value, 'inject')) out.push(...checkInjectBlock(value.inject, childPath(path, 'inject')));
  if (Object.hasOwn(value, 'elicitation')) {
    const e = value.elicitation;
    const ok = isJsonObject(e) && ['form', 'url'].every((k) => !(k in e) || isJsonObject(e[k]));
    if (!ok) v(childPath(path, 'elicitation'), 'elicitation must be {form?: {}, url?: {}}');
  }
  return out;
}

function checkModifyBlock(value: JsonValue | undefined, path: string, eventType: string): Violation[] {
  const out: Violation[] = [];
  if (!isJsonObject(value) || Object.keys(value).length === 0) {
    return [
      { path, message: 'modify must be a non-empty map of target to {replace, merge}', requirement: CAP1 },
    ];
  }
  const allowed = effectBoundsFor(eventType)?.modifyTargets ?? [];
  for (const [target, ops] of Object.entries(value)) {
    const p = childPath(path, target);
    if (!(MODIFY_TARGETS as readonly string[]).includes(target)) {
      out.push({ path: p, message: `unknown modify target "${target}"`, requirement: CAP1 });
    } else if (!(allowed as readonly string[]).includes(target)) {
      out.push({
        path: p,
        message: `modify(${target}) cannot be enforced at ${eventType}`,
        requirement: CAP1,
      });
    }
    if (!isJsonObject(ops) || typeof ops.replace !== 'boolean' || typeof ops.merge !== 'boolean') {
      out.push({ path: p, message: 'each modify target needs boolean replace and merge', requirement: CAP1 });
    } else if (!ops.replace && !ops.merge) {
      out.push({ path: p, message: 'at least one of replace and merge must be true', requirement: CAP1 });
    }
  }
  return out;
}

function checkFlowBlock(value: JsonValue | undefined, path: string, eventType: string): Violation[] {
  const out: Violation[] = [];
  const v = (p: string, message: string) => out.push({ path: p, message, requirement: CAP1 });
  if (!isJsonObject(value)) return [{ path, message: 'flow must be an object', requirement: CAP1 }];
  const ops = value.operations;
  const opsPath = childPath(path, 'operations');
  const allowed = effectBoundsFor(eventType)?.flowOperations ?? [];
  if (!Array.isArray(ops) || ops.length === 0) v(opsPath, 'flow.operations must be a non-empty array');
  else {
    const seen = new Set<string>();
    ops.forEach((op, i) => {
      const p = childPath(opsPath, i);
      if (op !== 'stop' && op !== 'continue') return v(p, 'a flow operation is stop or continue');
      if (seen.has(op)) v(p, `flow operation "${op}" is listed twice`);
      seen.add(op);
      if (!(allowed as readonly string[]).includes(op)) v(p, `flow ${op} cannot be enforced at ${eventType}`);
    });
    if (seen.has('continue')) {
      for (const key of ['remainingContinuations', 'continuationCount'] as const) {
        if (!(key in value)) v(childPath(path, key), `${key} is required when continue is advertised`);
      }
    }
  }
  for (const key of ['remainingContinuations', 'continuationCount', 'maxContinuations'] as const) {
    if (key in value && !isNonNegativeInteger(value[key]))
      v(childPath(path, key), `${key} must be a non-negative integer`);
  }
  return out;
}

function checkInjectBlock(value: JsonValue | undefined, path: string): Violation[] {
  const ctx = isJsonObject(value) ? value.context : undefined;
  const deliverAt = isJsonObject(ctx) ? ctx.deliverAt : undefined;
  const ok =
    isJsonObject(ctx) &&
    ctx.append === true &&
    Array.isArray(deliverAt) &&
    deliverAt.length > 0 &&
    new Set(deliverAt).size === deliverAt.length &&
    deliverAt.every((d) => d === 'now' || d === 'next_turn');
  return ok
    ? []
    : [
        {
          path,
          message: 'inject must be {context: {append: true, deliverAt: ["now"|"next_turn", ...]}}',
          requirement: CAP1,
        },
      ];
}

/** Reads a JSON capabilities object as the typed shape (call after validation; unknown keys kept). */
export function asCapabilities(value: JsonObject): Capabilities {
  return value as unknown as Capabilities;
}

/** True when `effects` advertises the effect type. */
export function advertisesEffect(caps: Capabilities, type: string): boolean {
  return Array.isArray(caps.effects) && caps.effects.includes(type);
}

/** True when the modify block grants `operation` on `target`. */
export function advertisesModify(
  caps: Capabilities,
  target: string,
  operation: 'replace' | 'merge',
): boolean {
  const entry = caps.modify?.[target];
  return isJsonObject(entry as JsonValue) && entry?.[operation] === true;
}

/** True when the flow block lists `operation`. */
export function advertisesFlow(caps: Capabilities, operation: 'stop' | 'continue'): boolean {
  return Array.isArray(caps.flow?.operations) && caps.flow.operations.includes(operation);
}

/** True when the inject block allows delivery at `deliverAt`. */
export function advertisesInject(caps: Capabilities, deliverAt: 'now' | 'next_turn'): boolean {
  const list = caps.inject?.context?.deliverAt;
  return caps.inject?.context?.append === true && Array.isArray(list) && list.includes(deliverAt);
}
