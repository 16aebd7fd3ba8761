/**
 * The data of the AHP-EDIT-001 content cases (content-edit-cases.ts): the content targets
 * (protocol/content-targets.ts) with the role an added message takes, the content handed in
 * (text only, so nothing in it is withheld from a body view and a whole-list replace may be
 * offered), the edits a backend returns, and the content every later receiver must then be sent.
 * Each text holds a marker unique to its part and run. Pure.
 */
import { contentTargetOf, writeSlot, type ContentTarget } from '../../../protocol/content-targets.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../../protocol/json.js';
import {
  contentFor,
  givenConversation,
  marker,
  partJson,
  placeContent,
  summaryParts,
  type GivenMessage,
  type GivenPart,
} from './content-samples.js';

/** One event and the content target it can modify (protocol/content-targets.ts), with a role. */
export interface ContentEditTarget extends ContentTarget {
  event: string;
  /** The role of the messages an edit adds (the event's schema may require one). */
  role: GivenMessage['role'];
}

/** The role of the messages an edit adds at each event, in the order the cases are declared. */
const ADDED_ROLE: Readonly<Record<string, GivenMessage['role']>> = {
  'turn.start': 'user',
  'user.message.inbound': 'user',
  'model.request.before': 'user',
  'model.response.after': 'assistant',
  'turn.finish.before': 'assistant',
  'tool.after': 'tool',
  'user.message.outbound': 'assistant',
  'context.compact.before': 'user',
  'context.compact.after': 'user',
};

/** Every content target an interceptable event has a list for (not the elicitation answer, not the workspace). */
export const CONTENT_EDIT_TARGETS: readonly ContentEditTarget[] = Object.entries(ADDED_ROLE).map(
  ([event, role]) => ({ event, ...(contentTargetOf(event) as ContentTarget), role }),
);

/** The given content of a case: messages, and the parts of a part-list target. */
export interface GivenContent {
  messages: GivenMessage[];
  parts: GivenPart[];
}

/** The conversation of `event` without its attachments (text only: nothing a body view withholds). */
export function textContent(target: ContentEditTarget, nonce: string): GivenContent {
  const messages = contentFor(target.event, givenConversation(nonce, { structured: false }))
    .map((m) => ({ ...m, parts: m.parts.filter((p) => p.kind === 'text') }))
    .filter((m) => m.parts.length > 0);
  const parts =
    target.slot === 'instructions'
      ? [
          textPart(nonce, 'instruction-1', 'Keep the decisions.'),
          textPart(nonce, 'instruction-2', 'Drop the chatter.'),
        ]
      : summaryParts(messages);
  return { messages, parts };
}

/** The conversation of `event` with its attachments (the user's image among them). */
export function contentWithAttachment(target: ContentEditTarget, nonce: string): GivenContent {
  const messages = contentFor(target.event, givenConversation(nonce, { structured: false }));
  return { messages, parts: summaryParts(messages) };
}

function textPart(nonce: string, id: string, words: string): GivenPart {
  return { id, kind: 'text', mediaType: 'text/plain', text: `${words} ${marker(nonce, id)}` };
}

/** Puts the given content in the payload: the event's conversation, and the target's part list. */
export function placeGiven(target: ContentEditTarget, payload: JsonObject, given: GivenContent): void {
  placeContent(target.event, payload, given.messages);
  if (target.slot === 'instructions') payload.instructions = given.parts.map(partJson);
}

/** The entries a backend's edit carries: messages of the event's role, or text parts. */
export function editEntries(target: ContentEditTarget, nonce: string, ids: readonly string[]): JsonValue[] {
  return ids.map((id) => {
    const part = partJson(textPart(nonce, `${id}-text`, `Edited by the first backend (${id}).`));
    return target.list === 'parts' ? part : { id, role: target.role, parts: [part] };
  });
}

/** The edit of one case: the value and what the target holds once it is applied. */
export interface ContentEdit {
  operation: 'replace' | 'merge';
  value: JsonValue[];
  /** The effective target after the edit, as a body view shows it. */
  effective: JsonValue[];
}

/**
 * The edit a chain case's first backend returns: a replace with two new entries, or a merge of
 * one entry twice (merge appends without deduplication, so both copies must arrive).
 */
export function contentEdit(
  target: ContentEditTarget,
  operation: 'replace' | 'merge',
  given: GivenContent,
  nonce: string,
): ContentEdit {
  const original = givenList(target, given);
  if (operation === 'replace') {
    const value = editEntries(target, nonce, ['edit-1', 'edit-2']);
    return { operation, value, effective: value };
  }
  const [entry] = editEntries(target, nonce, ['edit-1']) as [JsonValue];
  return { operation, value: [entry, entry], effective: [...original, entry, entry] };
}

/** The given content of the target as a body view carries it. */
export function givenList(target: ContentEditTarget, given: GivenContent): JsonValue[] {
  if (target.list === 'parts') return given.parts.map(partJson);
  return given.messages.map((m) => ({ id: m.id, role: m.role, parts: m.parts.map(partJson) }));
}

/** Puts `list` in the target's slot of a payload (the payload is changed). */
export function setSlot(target: ContentEditTarget, payload: JsonObject, list: JsonValue[]): void {
  Object.assign(payload, writeSlot(payload, target.slot, list));
}

/**
 * `list` (messages or parts) with the text part `partId` handed in as a content gap: the host
 * has no text for it (body selection, a `gap`, no `text`).
 */
export function withGap(list: readonly JsonValue[], partId: string): JsonValue[] {
  const part = (p: JsonValue): JsonValue =>
    isJsonObject(p) && p.id === partId
      ? {
          id: partId,
          kind: 'text',
          mediaType: 'text/plain',
          selection: 'body',
          gap: { reason: 'unavailable' },
        }
      : p;
  return list.map((entry) =>
    isJsonObject(entry) && Array.isArray(entry.parts)
      ? { ...entry, parts: entry.parts.map(part) }
      : part(entry),
  );
}

/** The target's list in an event on the wire, or undefined when it is missing. */
export function slotOf(target: ContentEditTarget, event: JsonValue): JsonValue | undefined {
  if (!isJsonObject(event)) return undefined;
  if (target.slot !== 'message.messages') return event[target.slot];
  return isJsonObject(event.message) ? event.message.messages : undefined;
}

/**
 * What a comparison of content looks at: ids, roles, kinds and texts in order. A view's own
 * descriptors (selection, a gap of an attachment it could not upload) are the content cases'.
 */
export function contentShape(list: JsonValue | undefined): JsonValue {
  if (!Array.isArray(list)) return null;
  return list.map((entry) => {
    if (!isJsonObject(entry)) return entry;
    if (!Array.isArray(entry.parts)) return partShape(entry);
    return { id: entry.id ?? null, role: entry.role ?? null, parts: entry.parts.map(partShape) };
  });
}

function partShape(part: JsonValue): JsonValue {
  if (!isJsonObject(part)) return part;
  const out: JsonObject = { id: part.id ?? null, kind: part.kind ?? null };
  if (part.kind === 'text') out.text = part.text ?? null;
  return out;
}
