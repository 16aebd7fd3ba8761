/**
 * The model-visible content the content cases hand the harness (AHP-CONTENT-001, AHP-CONTENT-002),
 * and where each event type carries it. Every text holds a marker unique to its part and run, so a
 * check can tell which text reached the wire, and find one anywhere in a frame (a copy in `native`,
 * an extension, a tool input). Pure.
 */
import { BODY_BASE64 } from '../../../protocol/driver-protocol/index.js';
import type { JsonObject, JsonValue } from '../../../protocol/json.js';

/** A canonical part as handed in: the full (body) content the host has. */
export interface GivenPart {
  id: string;
  kind: 'text' | 'attachment';
  mediaType: string;
  category?: string;
  /**
   * For an attachment without `category`: the category its media type puts it in, by the names
   * content-selection.schema.json gives (images, audio, video), the one a per-category case
   * expects it to be selected by. Absent for any other media type: the draft names no category
   * for it, so it may be filed under `files` or under none (the default).
   */
  mediaCategory?: 'images' | 'audio' | 'video';
  /** The inline text of a text part. */
  text?: string;
  /** The host's reference of an attachment. */
  ref?: string;
  /**
   * The bytes the host owns for an attachment, handed in as `bodyBase64` (driver protocol v1.2)
   * instead of a reference.
   */
  bytes?: Uint8Array;
  /** True for structured data the application serialized into the text. */
  structured?: boolean;
}

/** A canonical message as handed in. */
export interface GivenMessage {
  id: string;
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  parts: GivenPart[];
}

/** The marker of one part in one run: what a check looks for in the frames. */
export function marker(nonce: string, partId: string): string {
  return `zqmark-${nonce}-${partId}`;
}

function text(nonce: string, id: string, words: string, category?: string): GivenPart {
  return {
    id,
    kind: 'text',
    mediaType: 'text/plain',
    ...(category === undefined ? {} : { category }),
    text: `${words} ${marker(nonce, id)}`,
  };
}

/**
 * An attachment the host holds by a reference of its own, which carries the part's marker, with
 * the category its media type puts it in (if the draft names one) or an explicit category.
 */
function attachment(
  nonce: string,
  id: string,
  mediaType: string,
  filed: Pick<GivenPart, 'mediaCategory' | 'category'>,
): GivenPart {
  return { id, kind: 'attachment', mediaType, ...filed, ref: `host-ref-${marker(nonce, id)}` };
}

/** Structured data the application serialized into a text part. */
function structuredText(id: string, data: JsonObject): GivenPart {
  return { id, kind: 'text', mediaType: 'text/plain', text: JSON.stringify(data), structured: true };
}

/**
 * The conversation handed in: every canonical role but developer, several parts per message in a
 * significant order, a reasoning part (an explicit category on a text part), an image attachment,
 * and, with `structured`, structured data the application serialized into text (in the user's
 * and the assistant's message, so every event type with content carries some). With `media`,
 * the user's message also holds an audio, a video and a PDF attachment, none with a category,
 * and an image with the explicit category files.
 */
export function givenConversation(
  nonce: string,
  options: { structured: boolean; media?: boolean; hostWithheld?: boolean },
): GivenMessage[] {
  const data: JsonObject = { files: ['a.txt', 'b.txt'], count: 2, mark: marker(nonce, 'user-2') };
  return [
    { id: 'msg-system', role: 'system', parts: [text(nonce, 'system-1', 'Answer briefly.')] },
    {
      id: 'msg-user',
      role: 'user',
      parts: [
        text(nonce, 'user-1', 'Which files are here?'),
        ...(options.structured ? [structuredText('user-2', data)] : []),
        attachment(nonce, 'user-3', 'image/png', { mediaCategory: 'images' }),
        // One attachment per other media-derived category, so a per-category selection can tell
        // an audio or video attachment filed under the wrong category; one of a media type the
        // draft files under no category; and an image whose explicit category is files.
        ...(options.media
          ? [
              attachment(nonce, 'user-4', 'audio/ogg', { mediaCategory: 'audio' }),
              attachment(nonce, 'user-5', 'video/mp4', { mediaCategory: 'video' }),
              attachment(nonce, 'user-6', 'application/pdf', {}),
              attachment(nonce, 'user-8', 'image/jpeg', { category: 'files' }),
            ]
          : []),
        // A text the host itself holds only the descriptor of (it hands it in as a metadata view).
        ...(options.hostWithheld ? [{ id: 'user-7', kind: 'text', mediaType: 'text/plain' } as const] : []),
      ],
    },
    {
      id: 'msg-assistant',
      role: 'assistant',
      parts: [
        text(nonce, 'assistant-1', 'Listing the directory first.', 'reasoning'),
        text(nonce, 'assistant-2', 'Two files.'),
        text(nonce, 'assistant-3', 'Side note for the log.', 'dev.example.notes'),
        ...(options.structured
          ? [structuredText('assistant-4', { plan: ['ls'], mark: marker(nonce, 'assistant-4') })]
          : []),
      ],
    },
    { id: 'msg-tool', role: 'tool', parts: [text(nonce, 'tool-1', 'a.txt b.txt')] },
  ];
}

/**
 * A given part as the host hands it to the harness: its canonical body view, or a metadata view
 * for a text part the host has no text of.
 */
export function partJson(part: GivenPart): JsonObject {
  const hostView = part.kind === 'text' && part.text === undefined ? 'metadata' : 'body';
  const out: JsonObject = { id: part.id, kind: part.kind, mediaType: part.mediaType, selection: hostView };
  if (part.category !== undefined) out.category = part.category;
  if (part.text !== undefined) out.text = part.text;
  if (part.ref !== undefined) out.body = { ref: part.ref };
  if (part.bytes !== undefined) out[BODY_BASE64] = Buffer.from(part.bytes).toString('base64');
  return out;
}

function messagesJson(messages: readonly GivenMessage[]): JsonValue[] {
  return messages.map((m) => ({ id: m.id, role: m.role, parts: m.parts.map(partJson) }));
}

/** Where an event type carries model-visible content. */
export type ContentSlot = 'items' | 'message.messages' | 'summary';

/** The interceptable events that carry model-visible content, and their slot. */
export const CONTENT_EVENTS: Readonly<Record<string, ContentSlot>> = {
  'tool.after': 'items',
  'session.start': 'items',
  'turn.start': 'items',
  'turn.finish.before': 'items',
  'model.request.before': 'items',
  'model.response.after': 'items',
  'context.compact.before': 'items',
  'context.compact.after': 'summary',
  'user.message.inbound': 'message.messages',
  'user.message.outbound': 'message.messages',
};

/**
 * The content of `messages` an event type can carry: inbound user messages only hold the user's
 * messages, outbound ones the assistant's, and a compaction summary is a list of text parts.
 */
export function contentFor(type: string, messages: readonly GivenMessage[]): GivenMessage[] {
  if (type === 'user.message.inbound') return messages.filter((m) => m.role === 'user');
  if (type === 'user.message.outbound') return messages.filter((m) => m.role === 'assistant');
  return [...messages];
}

/** The parts in a summary slot: the text parts of the messages, in order. */
export function summaryParts(messages: readonly GivenMessage[]): GivenPart[] {
  return messages.flatMap((m) => m.parts.filter((p) => p.kind === 'text'));
}

/**
 * Puts `messages` into the payload's content slot for `type` (the payload is changed); with
 * `bareParts`, an `items` slot holds their parts as bare parts, in order, without messages.
 */
export function placeContent(
  type: string,
  payload: JsonObject,
  messages: readonly GivenMessage[],
  bareParts = false,
): void {
  const slot = CONTENT_EVENTS[type];
  if (slot === 'items' && bareParts) payload.items = messages.flatMap((m) => m.parts.map(partJson));
  else if (slot === 'items') payload.items = messagesJson(messages);
  else if (slot === 'summary') payload.summary = summaryParts(messages).map(partJson);
  else if (slot === 'message.messages') {
    const message = (payload.message ?? {}) as JsonObject;
    payload.message = { ...message, messages: messagesJson(messages) };
  }
}

/** The content slot of an event on the wire, or undefined when it is missing. */
export function wireSlot(type: string, event: JsonObject): JsonValue | undefined {
  const slot = CONTENT_EVENTS[type];
  if (slot === 'items') return event.items;
  if (slot === 'summary') return event.summary;
  const message = event.message;
  return typeof message === 'object' && message !== null && !Array.isArray(message)
    ? (message as JsonObject).messages
    : undefined;
}
