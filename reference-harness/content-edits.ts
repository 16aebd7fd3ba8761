/**
 * `modify` of an event's model-visible content (composition.md, AHP-EDIT-001): where each content
 * target lives on its event, and how a replace or merge of it is applied. Message lists and
 * text-part lists: `replace` swaps in the whole list, `merge` appends in order, duplicates kept.
 * A whole-list replace is never offered (and never applied) to a subscription whose view of the
 * target withholds text (metadata/omit selection) or holds a gap: it would delete what it cannot
 * see. Attachments are immutable: a value may carry an attachment only as the unchanged reference
 * the subscription was given, which keeps the host's own part; anything else is an edit of
 * attachment content, or a reference nobody confirmed, and the whole response is refused.
 * Elicitation answers (`content` at user.elicitation.result) and the workspace are not applied
 * here, so neither is advertised. Where each target lives is protocol/content-targets.ts. Pure.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../protocol/json.js';
import type { ContentTarget } from '../protocol/content-targets.js';

/** The parts of a list target: each message's parts, or the list itself. */
function partsOf(list: readonly JsonValue[], kind: ContentTarget['list']): JsonObject[] {
  const items =
    kind === 'messages'
      ? list.flatMap((m) => (isJsonObject(m) && Array.isArray(m.parts) ? m.parts : []))
      : list;
  return items.filter(isJsonObject);
}

/** True when a part's view holds back content: a metadata/omit selection, a gap, or no inline text. */
function withholds(part: JsonObject): boolean {
  if (part.selection !== 'body' || 'gap' in part) return true;
  return part.kind === 'text' ? typeof part.text !== 'string' : !isJsonObject(part.body);
}

/** True when a subscription's view of the target withholds text or holds a gap (no whole-list replace). */
export function viewHidesContent(list: readonly JsonValue[], kind: ContentTarget['list']): boolean {
  return partsOf(list, kind).some(withholds);
}

/** An applied edit, or why the response cannot be applied. */
export type ListEdit = { ok: true; list: JsonValue[] } | { ok: false; detail: string };

/** What an edit is applied against: the host's current content and the subscription's view of it. */
export interface EditBase {
  current: readonly JsonValue[];
  view: readonly JsonValue[];
}

/**
 * Applies `operation` with `value` (already a valid list of the target's shape) to the target.
 * Attachment parts in the value are resolved to the host's own parts, or refused.
 */
export function applyListEdit(
  target: ContentTarget,
  base: EditBase,
  operation: 'replace' | 'merge',
  value: readonly JsonValue[],
): ListEdit {
  if (operation === 'replace' && viewHidesContent(base.view, target.list)) {
    return {
      ok: false,
      detail: `cannot replace ${target.target} whole: this subscription's view of it withholds content`,
    };
  }
  const attachments = offeredAttachments(base, target.list);
  const resolved: JsonValue[] = [];
  for (const entry of value) {
    const item =
      target.list === 'messages'
        ? resolveMessage(entry, attachments)
        : resolvePart(entry, attachments, 'parts');
    if (typeof item === 'string') return { ok: false, detail: `modify(${target.target}): ${item}` };
    resolved.push(item);
  }
  return { ok: true, list: operation === 'replace' ? resolved : [...base.current, ...resolved] };
}

/** The attachments a subscription was offered as ready references, each with the host's part. */
interface Offered {
  seen: JsonObject;
  host: JsonObject;
}

function offeredAttachments(base: EditBase, kind: ContentTarget['list']): Map<string, Offered> {
  const host = new Map<string, JsonObject>();
  for (const part of partsOf(base.current, kind)) if (typeof part.id === 'string') host.set(part.id, part);
  const out = new Map<string, Offered>();
  for (const seen of partsOf(base.view, kind)) {
    if (seen.kind !== 'attachment' || withholds(seen) || typeof seen.id !== 'string') continue;
    const original = host.get(seen.id);
    if (original !== undefined) out.set(seen.id, { seen, host: original });
  }
  return out;
}

function resolveMessage(entry: JsonValue, attachments: Map<string, Offered>): JsonValue | string {
  if (!isJsonObject(entry) || !Array.isArray(entry.parts)) return entry;
  const parts: JsonValue[] = [];
  for (const part of entry.parts) {
    const resolved = resolvePart(part, attachments, 'messages');
    if (typeof resolved === 'string') return resolved;
    parts.push(resolved);
  }
  return { ...entry, parts };
}

/**
 * A part of an edit value: text as given; an attachment only as the exact reference the
 * subscription saw (then the host's own part); a text-part list takes no attachment at all.
 */
function resolvePart(
  part: JsonValue,
  attachments: Map<string, Offered>,
  kind: ContentTarget['list'],
): JsonValue | string {
  if (!isJsonObject(part) || part.kind !== 'attachment') return part;
  if (kind === 'parts') return 'a text-part list takes no attachment part';
  const offered = typeof part.id === 'string' ? attachments.get(part.id) : undefined;
  if (offered === undefined || !sameJson(part, offered.seen)) {
    return `attachment ${JSON.stringify(part.id ?? null)} is not an unchanged reference this subscription was given (attachments are immutable)`;
  }
  return offered.host;
}

function sameJson(a: JsonValue, b: JsonValue): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/** `value` with object keys sorted, so key order does not make two equal values differ. */
function canonical(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(canonical);
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value).sort()) out[key] = canonical(value[key] as JsonValue);
  return out;
}
