import { advertisesEffect, advertisesFlow, advertisesInject, advertisesModify } from './capabilities.js';
import { findConflicts } from './conflicts.js';
import { checkEffectShape, type EffectViolation } from './effect-shapes.js';
import { effectBoundsFor } from './events.js';
import { childPath, type JsonValue } from './json.js';
import type { Capabilities, Effect } from './wire-types.js';

export type { EffectProblem, EffectViolation } from './effect-shapes.js';
export { checkEffectShape, checkModifyValue } from './effect-shapes.js';

/** The boundary an effect list is judged at. */
export interface EffectContext {
  eventType: string;
  capabilities: Capabilities;
  /** Revision of the exchange; `"0.1"` turns on its one-effect rule. Default `"draft"`. */
  protocolVersion?: string;
  /** The intercepted event, for contextual value rules (elicitation mode/action). */
  event?: JsonValue;
  /** JSON path of the effect list in the enclosing message. Default `$`. */
  path?: string;
}

/**
 * Judges a whole effect list at one boundary (§2.3, §2.4, §6.5). Each member is checked for an
 * unknown type, a malformed shape (unknown fields included), the per-event bounds and the
 * request's advertisement; then the well-formed list is checked for conflicts. An empty result
 * means the list may be accepted atomically; any entry rejects the whole list.
 */
export function checkEffects(effects: JsonValue, ctx: EffectContext): EffectViolation[] {
  const path = ctx.path ?? '$';
  if (!Array.isArray(effects)) {
    return [
      {
        path,
        message: 'effects must be an array',
        requirement: 'AHP-DEC-001',
        problem: 'malformed',
        index: -1,
      },
    ];
  }
  // The common answer, `[]`, has nothing to check or to conflict.
  if (effects.length === 0) return [];
  const out: EffectViolation[] = [];
  effects.forEach((effect, index) => {
    const p = childPath(path, index);
    const shape = checkEffectShape(effect, index, p, ctx);
    if (shape.length > 0) out.push(...shape);
    else out.push(...checkPermitted(effect as unknown as Effect, index, p, ctx));
  });
  if (out.length > 0) return out;
  return findConflicts(effects as unknown as Effect[], ctx, path);
}

/** Per-event bounds first (what the boundary can ever take), then the request's advertisement. */
function checkPermitted(effect: Effect, index: number, path: string, ctx: EffectContext): EffectViolation[] {
  const bounds = effectBoundsFor(ctx.eventType);
  const notAt = (message: string): EffectViolation[] => [
    { path, message, requirement: 'AHP-CAP-001', problem: 'not-allowed-at-event', index },
  ];
  const unadvertised = (message: string): EffectViolation[] => [
    { path, message, requirement: 'AHP-CAP-001', problem: 'unadvertised', index },
  ];
  if (!bounds) return notAt(`no effect is allowed at "${ctx.eventType}", which is not interceptable`);
  if (!(bounds.effects as readonly string[]).includes(effect.type)) {
    return notAt(`${effect.type} is not allowed at ${ctx.eventType}`);
  }
  if (effect.type === 'modify' && !(bounds.modifyTargets as readonly string[]).includes(effect.target)) {
    return notAt(`modify(${effect.target}) is not allowed at ${ctx.eventType}`);
  }
  if (effect.type === 'flow' && !bounds.flowOperations.includes(effect.operation)) {
    return notAt(`flow ${effect.operation} is not allowed at ${ctx.eventType}`);
  }
  const caps = ctx.capabilities;
  if (!advertisesEffect(caps, effect.type)) return unadvertised(`${effect.type} was not advertised`);
  if (effect.type === 'modify' && !advertisesModify(caps, effect.target, effect.operation)) {
    return unadvertised(`modify ${effect.operation} of ${effect.target} was not advertised`);
  }
  if (effect.type === 'flow' && !advertisesFlow(caps, effect.operation)) {
    return unadvertised(`flow ${effect.operation} was not advertised`);
  }
  if (effect.type === 'inject' && !advertisesInject(caps, effect.deliverAt)) {
    return unadvertised(`inject at ${effect.deliverAt} was not advertised`);
  }
  return [];
}
