import { validateElicitationContent, validateMessageList, validatePartList } from './content.js';
import { isReverseDns, validateExtensions } from './events.js';
import { childPath, isJsonObject, type JsonObject, type JsonValue, type Violation } from './json.js';
import { EFFECT_TYPES, MODIFY_TARGETS, type ModifyTarget } from './wire-types.js';

/** What is wrong with one effect member, from least to most specific. */
export type EffectProblem = 'unknown' | 'malformed' | 'unadvertised' | 'conflicting' | 'not-allowed-at-event';

/** A violation tied to one member of an effect list (`index` -1: the list itself). */
export interface EffectViolation extends Violation {
  problem: EffectProblem;
  index: number;
}

/** The boundary facts a value-shape check may need; all optional for context-free checks. */
export interface ShapeContext {
  /** The event type of the intercepted boundary; unknown => context-free shape checks. */
  eventType?: string;
  /** The intercepted event itself, for contextual rules (elicitation mode and action). */
  event?: JsonValue;
}

const DEC = 'AHP-DEC-001';

// Every effect object is closed: these are all the fields each type may carry (§2.3).
const FIELDS: Record<string, readonly string[]> = {
  deny: ['type', 'reason', 'code', 'extensions'],
  allow: ['type'],
  ask: ['type'],
  modify: ['type', 'target', 'operation', 'value'],
  message: ['type', 'text'],
  return: ['type', 'value'],
  flow: ['type', 'operation', 'reason', 'instruction'],
  inject: ['type', 'target', 'operation', 'deliverAt', 'value'],
};

function nonEmpty(v: JsonValue | undefined): v is string {
  return typeof v === 'string' && v.length > 0;
}

/**
 * Checks one effect's type and shape: `unknown` for a type outside the draft vocabulary,
 * `malformed` for a missing or bad field, an unknown field, or a value that does not fit the
 * boundary. Advertisement and per-event bounds are checked elsewhere.
 */
export function checkEffectShape(
  effect: JsonValue,
  index: number,
  path: string,
  ctx: ShapeContext = {},
): EffectViolation[] {
  const out: EffectViolation[] = [];
  const bad = (p: string, message: string, requirement = DEC) =>
    out.push({ path: p, message, requirement, problem: 'malformed', index });
  if (!isJsonObject(effect)) {
    bad(path, 'an effect must be an object');
    return out;
  }
  const type = effect.type;
  if (typeof type !== 'string') {
    bad(childPath(path, 'type'), 'an effect needs a string type');
    return out;
  }
  if (!(EFFECT_TYPES as readonly string[]).includes(type)) {
    // A reverse-DNS name never authorizes an unknown effect type.
    out.push({
      path: childPath(path, 'type'),
      message: `unknown effect type "${type}"`,
      requirement: DEC,
      problem: 'unknown',
      index,
    });
    return out;
  }
  const allowed = FIELDS[type] as readonly string[];
  for (const key of Object.keys(effect)) {
    if (!allowed.includes(key))
      bad(childPath(path, key), `unknown field "${key}" in a ${type} effect`, 'AHP-CORE-003');
  }
  const at = (k: string) => childPath(path, k);
  switch (type) {
    case 'deny':
      if (!nonEmpty(effect.reason)) bad(at('reason'), 'deny needs a non-empty reason');
      if ('code' in effect && !(typeof effect.code === 'string' && isReverseDns(effect.code))) {
        bad(at('code'), 'deny code must be a reverse-DNS string', 'AHP-EXT-001');
      }
      for (const v of validateExtensions(effect.extensions, at('extensions')))
        bad(v.path, v.message, v.requirement);
      break;
    case 'message':
      if (typeof effect.text !== 'string') bad(at('text'), 'message needs a string text');
      break;
    case 'return':
      if (!('value' in effect)) bad(at('value'), 'return needs a value');
      break;
    case 'flow':
      checkFlow(effect, at, bad);
      break;
    case 'inject':
      if (effect.target !== 'context') bad(at('target'), 'inject target must be "context"');
      if (effect.operation !== 'append') bad(at('operation'), 'inject operation must be "append"');
      if (effect.deliverAt !== 'now' && effect.deliverAt !== 'next_turn')
        bad(at('deliverAt'), 'deliverAt is now or next_turn');
      if (!('value' in effect)) bad(at('value'), 'inject needs a value');
      else
        for (const v of validateMessageList(effect.value as JsonValue, at('value')))
          bad(v.path, v.message, v.requirement);
      break;
    case 'modify':
      checkModify(effect, at, bad, ctx);
      break;
    default:
      break; // allow and ask carry nothing but their type.
  }
  return out;
}

type Bad = (p: string, message: string, requirement?: string) => void;

function checkFlow(effect: JsonObject, at: (k: string) => string, bad: Bad): void {
  if (effect.operation === 'stop') {
    if (!nonEmpty(effect.reason)) bad(at('reason'), 'flow stop needs a non-empty reason');
    if ('instruction' in effect) bad(at('instruction'), 'flow stop carries no instruction', 'AHP-CORE-003');
  } else if (effect.operation === 'continue') {
    if ('instruction' in effect && !nonEmpty(effect.instruction))
      bad(at('instruction'), 'instruction must be non-empty');
    if ('reason' in effect) bad(at('reason'), 'flow continue carries no reason', 'AHP-CORE-003');
  } else {
    bad(at('operation'), 'flow operation must be stop or continue');
  }
}

function checkModify(effect: JsonObject, at: (k: string) => string, bad: Bad, ctx: ShapeContext): void {
  const target = effect.target;
  const targetOk = typeof target === 'string' && (MODIFY_TARGETS as readonly string[]).includes(target);
  if (!targetOk) bad(at('target'), `unknown modify target ${JSON.stringify(target ?? null)}`);
  if (effect.operation !== 'replace' && effect.operation !== 'merge')
    bad(at('operation'), 'operation is replace or merge');
  if (!('value' in effect)) {
    bad(at('value'), 'modify needs a value');
    return;
  }
  if (!targetOk) return;
  for (const v of checkModifyValue(target as ModifyTarget, effect.value as JsonValue, at('value'), ctx)) {
    bad(v.path, v.message, v.requirement);
  }
}

/** The expected value type of `modify(target)` at a boundary (§2.3); `content` depends on the event. */
export function checkModifyValue(
  target: ModifyTarget,
  value: JsonValue,
  path: string,
  ctx: ShapeContext,
): Violation[] {
  const EDIT = 'AHP-EDIT-001';
  switch (target) {
    case 'prompt':
    case 'request':
    case 'response':
    case 'output':
      return validateMessageList(value, path, EDIT);
    case 'instructions':
    case 'summary':
      return validatePartList(value, path, EDIT);
    case 'input':
    case 'workspace':
      return isJsonObject(value)
        ? []
        : [{ path, message: `modify(${target}) takes an object`, requirement: EDIT }];
    case 'content':
      return checkContentValue(value, path, ctx);
  }
}

function checkContentValue(value: JsonValue, path: string, ctx: ShapeContext): Violation[] {
  const EDIT = 'AHP-EDIT-001';
  if (ctx.eventType === 'user.message.outbound') return validateMessageList(value, path, EDIT);
  if (ctx.eventType === 'user.elicitation.result') {
    const out = validateElicitationContent(value, path, EDIT);
    const elicitation = isJsonObject(ctx.event) ? ctx.event.elicitation : undefined;
    if (isJsonObject(elicitation)) {
      // Only an accepted form answer has content a backend may edit.
      if (elicitation.mode !== undefined && elicitation.mode !== 'form') {
        out.push({
          path,
          message: 'only a form-mode elicitation result has editable content',
          requirement: EDIT,
        });
      }
      if (elicitation.action !== undefined && elicitation.action !== 'accept') {
        out.push({
          path,
          message: 'only an accepted elicitation result has editable content',
          requirement: EDIT,
        });
      }
    }
    return out;
  }
  // Without a known boundary either shape may be right; a list must still be canonical messages.
  return Array.isArray(value)
    ? validateMessageList(value, path, EDIT)
    : isJsonObject(value)
      ? []
      : [
          {
            path,
            message: 'modify(content) takes a message list or an MCP answer object',
            requirement: EDIT,
          },
        ];
}
