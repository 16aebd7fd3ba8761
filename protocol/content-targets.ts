/**
 * Where each interceptable event carries the content a `modify` may target (composition.md maps
 * every list target to its field, AHP-EDIT-001): the target's name, the slot that holds its
 * list, and whether that list holds canonical messages or text parts. The reference harness
 * edits these slots, the suite raises and reads them, the twins bend them: one table for all.
 * Elicitation answers and the workspace are objects, not lists, and are not here. Pure.
 */
import { isJsonObject, type JsonObject, type JsonValue } from './json.js';
import type { ModifyTarget } from './wire-types.js';

/** Where a content target lives: the event's `items`, its `message.messages`, or a top-level part list. */
export type ContentSlot = 'items' | 'message.messages' | 'instructions' | 'summary';

/** A content target of one event: its name, its slot, and whether it holds messages or parts. */
export interface ContentTarget {
  target: ModifyTarget;
  slot: ContentSlot;
  list: 'messages' | 'parts';
}

/** The content target each event carries (composition.md maps every list target to its field). */
export const CONTENT_TARGETS: Readonly<Record<string, ContentTarget>> = {
  'tool.after': { target: 'output', slot: 'items', list: 'messages' },
  'turn.start': { target: 'prompt', slot: 'items', list: 'messages' },
  'user.message.inbound': { target: 'prompt', slot: 'message.messages', list: 'messages' },
  'model.request.before': { target: 'request', slot: 'items', list: 'messages' },
  'model.response.after': { target: 'response', slot: 'items', list: 'messages' },
  'turn.finish.before': { target: 'response', slot: 'items', list: 'messages' },
  'user.message.outbound': { target: 'content', slot: 'message.messages', list: 'messages' },
  'context.compact.before': { target: 'instructions', slot: 'instructions', list: 'parts' },
  'context.compact.after': { target: 'summary', slot: 'summary', list: 'parts' },
};

/** The content target of `eventType`, or undefined when it has none. */
export function contentTargetOf(eventType: string): ContentTarget | undefined {
  return Object.prototype.hasOwnProperty.call(CONTENT_TARGETS, eventType)
    ? CONTENT_TARGETS[eventType]
    : undefined;
}

/** The list in `slot` of `event`; an absent or non-list slot reads as empty. */
export function readSlot(event: object, slot: ContentSlot): JsonValue[] {
  const source = event as JsonObject;
  const value =
    slot === 'message.messages'
      ? isJsonObject(source.message)
        ? source.message.messages
        : undefined
      : source[slot];
  return Array.isArray(value) ? value : [];
}

/** A copy of `event` with `list` in `slot` (the event itself is not changed). */
export function writeSlot<E extends object>(event: E, slot: ContentSlot, list: JsonValue[]): E {
  const source = event as unknown as JsonObject;
  if (slot === 'message.messages') {
    const message = isJsonObject(source.message) ? source.message : {};
    return { ...source, message: { ...message, messages: list } } as unknown as E;
  }
  return { ...source, [slot]: list } as unknown as E;
}
