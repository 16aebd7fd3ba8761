import { effectBoundsFor } from '../protocol/events.js';
import { isJsonObject, type JsonValue, type Violation } from '../protocol/json.js';
import { validateCapabilities } from '../protocol/capabilities.js';
import type { Capabilities } from '../protocol/wire-types.js';
import { contentTargetOf, readSlot } from '../protocol/content-targets.js';
import { viewHidesContent } from './content-edits.js';

/** The `tool.before` effects this harness can enforce, so the only ones it may advertise. */
export const SUPPORTED_EFFECTS = [
  'deny',
  'allow',
  'ask',
  'message',
  'modify',
  'flow',
  'return',
  'inject',
] as const;
export type SupportedEffect = (typeof SUPPORTED_EFFECTS)[number];

/** Advertised by default: the minimum Tool Interception surface. */
export const DEFAULT_ADVERTISED_EFFECTS: readonly SupportedEffect[] = ['deny'];

/** Checks the `advertisedEffects` option: known, unique, and `deny` included (AHP-CAP-002). */
export function checkAdvertisedEffects(value: unknown): Violation[] {
  const path = '$.advertisedEffects';
  const requirement = 'AHP-CAP-001';
  if (!Array.isArray(value)) return [{ path, message: 'advertisedEffects must be an array', requirement }];
  const out: Violation[] = [];
  const seen = new Set<unknown>();
  value.forEach((item: unknown, i) => {
    if (!(SUPPORTED_EFFECTS as readonly unknown[]).includes(item)) {
      out.push({
        path: `${path}[${i}]`,
        message: `this harness can enforce only ${SUPPORTED_EFFECTS.join(', ')} at tool.before`,
        requirement,
      });
    }
    if (seen.has(item))
      out.push({ path: `${path}[${i}]`, message: 'an effect is listed twice', requirement });
    seen.add(item);
  });
  if (!seen.has('deny'))
    out.push({ path, message: 'deny must be advertised at tool.before', requirement: 'AHP-CAP-002' });
  return out;
}

/** Context injection as this harness offers it: appended now or at the next turn. */
const INJECT_CONTEXT: NonNullable<Capabilities['inject']> = {
  context: { append: true, deliverAt: ['now', 'next_turn'] },
};

/**
 * The `params.capabilities` of every `tool.before` request. `modify` covers only the tool input,
 * with both operations, and `flow` only `stop` (the one operation tool.before allows), since that
 * is all the staging code applies; `inject` appends context, now or at the next turn.
 */
export function buildCapabilities(advertised: readonly SupportedEffect[]): Capabilities {
  const caps: Capabilities = { effects: [...advertised] };
  if (advertised.includes('modify')) caps.modify = { input: { replace: true, merge: true } };
  if (advertised.includes('flow')) caps.flow = { operations: ['stop'] };
  if (advertised.includes('inject')) caps.inject = INJECT_CONTEXT;
  return caps;
}

/**
 * The `params.capabilities` for an event other than `tool.before`: the advertised effects this
 * harness can enforce at that boundary, never more than the draft's bounds for the event
 * (protocol/events.ts EVENT_EFFECT_BOUNDS). `modify` covers the event's content target
 * (content-edits.ts), with both operations, and is left out where the staging code applies
 * none (the tool input at tool.permission.request, the workspace, elicitation answers); `flow`
 * covers `stop` where the event has it. Undefined for an event it cannot intercept.
 */
export function capabilitiesForEvent(
  eventType: string,
  advertised: readonly SupportedEffect[],
): Capabilities | undefined {
  if (eventType === 'tool.before') return buildCapabilities(advertised);
  const bounds = effectBoundsFor(eventType);
  if (bounds === undefined) return undefined;
  const allowed = new Set<string>(bounds.effects);
  // flow: only `stop`, as at tool.before, and only where the event allows it.
  const stop = bounds.flowOperations.includes('stop');
  const content = contentTargetOf(eventType);
  const editable = content !== undefined && bounds.modifyTargets.includes(content.target);
  const effects = advertised.filter(
    (e) => allowed.has(e) && (e !== 'modify' || editable) && (e !== 'flow' || stop),
  );
  const caps: Capabilities = { effects };
  if (effects.includes('modify') && content !== undefined)
    caps.modify = { [content.target]: { replace: true, merge: true } };
  if (effects.includes('flow')) caps.flow = { operations: ['stop'] };
  if (effects.includes('inject')) caps.inject = INJECT_CONTEXT;
  return caps;
}

/**
 * Why this harness cannot enforce `capabilities` at `eventType` (each problem names the member),
 * or nothing when it can: what the draft allows there (validateCapabilities), a known effect only
 * (no reverse-DNS effect or capability member of its own), `modify` of the target the staging
 * code edits there (the tool input at tool.before, else the event's content target, where it
 * applies one) and inject of context. A continue allowance is whatever is offered.
 */
export function unenforceableCapabilities(capabilities: JsonValue, eventType: string): Violation[] {
  const requirement = 'AHPX-HARNESS-OPTIONS';
  const out = validateCapabilities(capabilities, eventType, '$.capabilities');
  if (out.length > 0 || !isJsonObject(capabilities)) return out;
  const known = new Set(['effects', 'modify', 'flow', 'inject']);
  for (const key of Object.keys(capabilities)) {
    if (!known.has(key))
      out.push({ path: `$.capabilities.${key}`, message: `this harness enforces no "${key}"`, requirement });
  }
  (capabilities.effects as string[]).forEach((effect, i) => {
    if (!(SUPPORTED_EFFECTS as readonly string[]).includes(effect))
      out.push({
        path: `$.capabilities.effects[${i}]`,
        message: `this harness cannot enforce "${effect}"`,
        requirement,
      });
  });
  const content = contentTargetOf(eventType);
  const editable = eventType === 'tool.before' ? 'input' : content?.target;
  const canEdit =
    eventType === 'tool.before' ||
    capabilitiesForEvent(eventType, ['deny', 'modify'])?.effects.includes('modify');
  const modify = isJsonObject(capabilities.modify) ? capabilities.modify : {};
  for (const target of Object.keys(modify)) {
    if (target !== editable || canEdit !== true)
      out.push({
        path: `$.capabilities.modify.${target}`,
        message: `this harness cannot apply modify(${target}) at ${eventType}`,
        requirement,
      });
  }
  return out;
}

/**
 * The capabilities of one subscription's request: `capabilities` without a whole-list replace of
 * the content target when `view` (what that subscription is sent) withholds any of it, since a
 * replace would drop what the backend cannot see. Merge stays. `capabilities` itself otherwise.
 */
export function capabilitiesForView(
  capabilities: Capabilities,
  eventType: string,
  view: object,
): Capabilities {
  const content = contentTargetOf(eventType);
  const entry = content === undefined ? undefined : capabilities.modify?.[content.target];
  if (content === undefined || entry?.replace !== true) return capabilities;
  if (!viewHidesContent(readSlot(view, content.slot), content.list)) return capabilities;
  if (entry.merge !== true) {
    // Nothing of modify is left to offer for this view.
    const effects = capabilities.effects.filter((e) => e !== 'modify');
    const narrowed: Capabilities = { ...capabilities, effects };
    delete narrowed.modify;
    return narrowed;
  }
  return {
    ...capabilities,
    modify: { ...capabilities.modify, [content.target]: { replace: false, merge: true } },
  };
}
