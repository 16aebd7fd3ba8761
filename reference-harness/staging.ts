import { isDeepStrictEqual } from 'node:util';
import { isJsonObject, type JsonObject, type JsonValue } from '../protocol/json.js';
import type {
  DenyEffect,
  Effect,
  EventEnvelope,
  InjectEffect,
  ModifyEffect,
  ToolBeforeEvent,
} from '../protocol/wire-types.js';
import { validateEvent } from '../protocol/event-validation.js';
import { contentTargetOf, readSlot, writeSlot } from '../protocol/content-targets.js';
import { applyListEdit } from './content-edits.js';

/** The event of one call: a `tool.before`, or any other interceptable event (driver protocol v1.1). */
export type HarnessEvent = ToolBeforeEvent | EventEnvelope;

/** Host-side permission state accumulated from `allow` and `ask` effects. */
export type Permission = 'none' | 'allow' | 'ask';

/** The accepted effective view of one call, as later interceptors and observers see it. */
export interface EffectiveState {
  /** The effective event (accepted modifications of the tool input or of the content applied). */
  event: HarnessEvent;
  permission: Permission;
  /** Accepted `message` texts, in order. */
  messages: string[];
  /** The supplied result in force (an accepted `return`, bound to the effective operation), or null. */
  candidate: { value: JsonValue } | null;
  /** The accepted flow outcome: a stop beats any continue. */
  flow: 'none' | 'stop' | 'continue';
  /** Accepted continue instructions, in order (kept under a stop, which still wins). */
  instructions: string[];
  /** Accepted `inject` effects, in order, each as received. */
  injections: InjectEffect[];
}

/** The state a call starts from: nothing accepted yet. */
export function initialState(event: HarnessEvent): EffectiveState {
  return {
    event,
    permission: 'none',
    messages: [],
    candidate: null,
    flow: 'none',
    instructions: [],
    injections: [],
  };
}

/** A response staged against a state: the state it would publish, or why it cannot be applied. */
export type Staged =
  | {
      ok: true;
      state: EffectiveState;
      deny?: { reason: string; code?: string };
      /**
       * An accepted flow stop: decision-making ends here and the pending operation does not run.
       * It is not a deny: the call's decision stays `continue`.
       */
      stop?: { reason: string };
    }
  | { ok: false; code: string; detail: string };

/**
 * Stages a validated effect list without touching `state`; the caller publishes the result only
 * after re-checking the deadline. Modifications apply first, in order, then the rest (approval is
 * tied to the effective arguments, so a changed input voids an earlier `allow`, never an `ask`; a
 * supplied result is bound to the effective operation, so a change of it voids an earlier
 * candidate, and a `return` of this response binds to the modified one and replaces any earlier).
 * Messages, continue instructions and injections accumulate in order; a stop beats a continue.
 * `seen` is the event as this subscription was sent it (its content view): a content edit is
 * applied against it (content-edits.ts). Anything this harness did not advertise, or cannot
 * apply, makes the whole response inapplicable.
 */
export function stageEffects(
  state: EffectiveState,
  effects: readonly Effect[],
  seen: HarnessEvent = state.event,
): Staged {
  const modified = applyModifications(state.event, seen, effects);
  if (!modified.ok) return { ok: false, code: 'result.effect-inapplicable', detail: modified.detail };
  let permission = state.permission;
  // Only a changed tool input voids an earlier allow: approval is tied to the arguments.
  if (modified.inputChanged && permission === 'allow') permission = 'none';
  // An equal operation (keys reordered, a merge of the same values) is no change of it.
  let candidate =
    modified.event === state.event || isDeepStrictEqual(modified.event, state.event) ? state.candidate : null;
  let flow = state.flow;
  const messages = [...state.messages];
  const instructions = [...state.instructions];
  const injections = [...state.injections];
  let deny: DenyEffect | undefined;
  let stop: { reason: string } | undefined;

  for (const effect of effects) {
    switch (effect.type) {
      case 'modify':
        break;
      case 'deny':
        deny ??= effect;
        break;
      case 'allow':
        if (permission === 'none') permission = 'allow';
        break;
      case 'ask':
        permission = 'ask';
        break;
      case 'message':
        messages.push(effect.text);
        break;
      case 'return':
        candidate = { value: effect.value };
        break;
      case 'flow':
        // The reply judge let only advertised operations (and a continue within the allowance) through.
        if (effect.operation === 'stop') {
          stop ??= { reason: effect.reason };
          flow = 'stop';
        } else {
          if (effect.instruction !== undefined) instructions.push(effect.instruction);
          if (flow === 'none') flow = 'continue';
        }
        break;
      case 'inject':
        injections.push(effect);
        break;
      default:
        // Every draft effect type is handled above; a value beyond them (a cast) is not applied.
        return {
          ok: false,
          code: 'result.effect-inapplicable',
          detail: `cannot apply ${(effect as Effect).type} here`,
        };
    }
  }
  const event = modified.event;
  const staged: Staged = {
    ok: true,
    state: { event, permission, messages, candidate, flow, instructions, injections },
  };
  if (deny)
    staged.deny =
      deny.code === undefined ? { reason: deny.reason } : { reason: deny.reason, code: deny.code };
  if (stop) staged.stop = stop;
  return staged;
}

type Modified = { ok: true; event: HarnessEvent; inputChanged: boolean } | { ok: false; detail: string };

/**
 * The event with every modify of `effects` applied in order: the tool input at tool.before
 * (replace, or a shallow merge: nested values replaced whole, null a literal), else the event's
 * content target, each edit over the result of the one before.
 */
function applyModifications(event: HarnessEvent, seen: HarnessEvent, effects: readonly Effect[]): Modified {
  let current = event;
  let inputChanged = false;
  for (const effect of effects) {
    if (effect.type !== 'modify') continue;
    // Attachments and withheld text are judged against what this subscription was sent.
    const next = applyModification(current, seen, effect);
    if (typeof next === 'string') return { ok: false, detail: next };
    if (effect.target === 'input') inputChanged = true;
    current = next;
  }
  if (current !== event && current.type !== 'tool.before') {
    // Every edit result must satisfy the event's schema (roles of user messages, say).
    const violations = validateEvent(current as unknown as JsonValue, '$.event');
    if (violations.length > 0) {
      const first = violations[0] as { path: string; message: string };
      return { ok: false, detail: `the edited event is invalid: ${first.path}: ${first.message}` };
    }
  }
  return { ok: true, event: current, inputChanged };
}

function applyModification(
  event: HarnessEvent,
  seen: HarnessEvent,
  effect: ModifyEffect,
): HarnessEvent | string {
  const cannot = `cannot apply modify(${effect.target}) here`;
  if (event.type === 'tool.before') {
    const tool = (event as ToolBeforeEvent).tool;
    if (effect.target !== 'input' || !isJsonObject(effect.value)) return cannot;
    const input: JsonObject =
      effect.operation === 'replace' ? { ...effect.value } : { ...tool.input, ...effect.value };
    return { ...event, tool: { ...tool, input } } as HarnessEvent;
  }
  const target = contentTargetOf(event.type);
  if (target === undefined || target.target !== effect.target || !Array.isArray(effect.value)) return cannot;
  const edit = applyListEdit(
    target,
    { current: readSlot(event, target.slot), view: readSlot(seen, target.slot) },
    effect.operation,
    effect.value as JsonValue[],
  );
  return edit.ok ? writeSlot(event, target.slot, edit.list) : edit.detail;
}
