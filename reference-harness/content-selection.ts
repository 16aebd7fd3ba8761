/**
 * Per-subscription content views (AHP-CONTENT-002, content-upload.md "Canonical messages and
 * content selection"): before an event goes to a subscription, every canonical part in it is
 * turned into the view that subscription's `content` selects for the part's category. A `body`
 * view keeps inline text; `metadata` and `omit` views keep the part's descriptor (id, kind,
 * mediaType, category, synthesized) and say which view they are, never its text or body. Opaque
 * `native` data could hold a copy of anything withheld, so it goes only to a subscription that
 * asked for it (`includeNative`, off by default) and whose view withholds nothing, at each place
 * the draft's event schemas give it: the event itself and its `error` (model.error, turn.end, a
 * failed tool.after). A `native` key anywhere else (a tool's input, say) is the host's data, not
 * this slot, and is left as it is.
 *
 * A body-selected attachment carries `body: {ref}` only with the reference its upload to this
 * subscription confirmed (attachment-uploads.ts); else it is a body view with a `gap`: the
 * failed upload's reason, or `upload-unavailable` when nothing was uploaded (no `upload`
 * configured, or no bytes the host owns). A reference the host handed in is never passed on: it
 * was not confirmed to this receiver.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../protocol/json.js';
import type { ContentSelection } from '../protocol/registration.js';
import { preparedBody } from './prepared-bodies.js';

type View = 'body' | 'metadata' | 'omit';

/** What of a subscription selects content. */
export interface ContentSubscription {
  content: ContentSelection;
  includeNative?: boolean;
}

/** The gap reason of a body-selected attachment nothing was uploaded for. */
export const NO_UPLOAD_GAP = 'upload-unavailable';
/** The gap reason of a body-selected text part the host handed in without its text. */
export const NO_TEXT_GAP = 'unavailable';

/** Descriptor members every view keeps, in wire order. */
const DESCRIPTOR_KEYS = ['id', 'kind', 'mediaType', 'category', 'synthesized'] as const;

/**
 * The category a part is selected by: its explicit `category`, else one derived from what it is
 * (text, or the attachment's media family), as content-selection.schema.json names them.
 */
export function partCategory(part: JsonObject): string {
  if (typeof part.category === 'string') return part.category;
  if (part.kind === 'text') return 'text';
  const media = typeof part.mediaType === 'string' ? part.mediaType.toLowerCase() : '';
  if (media.startsWith('image/')) return 'images';
  if (media.startsWith('audio/')) return 'audio';
  if (media.startsWith('video/')) return 'video';
  return 'files';
}

/** The view `content` selects for a category; unknown categories take the default. */
export function selectedView(content: ContentSelection, category: string): View {
  return Object.prototype.hasOwnProperty.call(content, category) && category !== 'default'
    ? (content[category] as View)
    : content.default;
}

/** Builds one subscription's view of one part; `withheld` is set when anything is held back. */
function partView(
  part: JsonObject,
  subscription: ContentSubscription,
  withheld: { any: boolean },
): JsonObject {
  const view = selectedView(subscription.content, partCategory(part));
  const out: JsonObject = {};
  for (const key of DESCRIPTOR_KEYS) if (key in part) out[key] = part[key] as JsonValue;
  out.selection = view;
  if (view !== 'body') {
    withheld.any = true;
    return out;
  }
  if (part.kind === 'text' && typeof part.text === 'string' && !('gap' in part)) {
    out.text = part.text;
    return out;
  }
  // An attachment's body is only ever the reference its upload to this subscription confirmed.
  const body = part.kind === 'attachment' ? preparedBody(part, subscription) : undefined;
  if (body !== undefined && 'ref' in body) {
    out.body = { ref: body.ref };
    return out;
  }
  withheld.any = true;
  if (body !== undefined) {
    out.gap = { reason: body.gap };
    return out;
  }
  out.gap = isJsonObject(part.gap)
    ? part.gap
    : { reason: part.kind === 'text' ? NO_TEXT_GAP : NO_UPLOAD_GAP };
  return out;
}

function messageView(
  message: JsonObject,
  subscription: ContentSubscription,
  withheld: { any: boolean },
): JsonObject {
  const parts = Array.isArray(message.parts) ? message.parts : [];
  return {
    ...message,
    parts: parts.map((p) => (isJsonObject(p) ? partView(p, subscription, withheld) : p)),
  };
}

/** `items` hold messages (with parts) or bare parts. */
function itemView(item: JsonValue, subscription: ContentSubscription, withheld: { any: boolean }): JsonValue {
  if (!isJsonObject(item)) return item;
  return 'parts' in item || 'role' in item
    ? messageView(item, subscription, withheld)
    : partView(item, subscription, withheld);
}

/** True when the event carries `native` at a place the schemas define one. */
function hasNative(event: JsonObject): boolean {
  return 'native' in event || (isJsonObject(event.error) && 'native' in event.error);
}

/** Removes `native` from each place the schemas define one; `out` is the view's own copy. */
function dropNative(out: JsonObject): void {
  delete out.native;
  if (isJsonObject(out.error) && 'native' in out.error) {
    const error: JsonObject = { ...out.error };
    delete error.native;
    out.error = error;
  }
}

/** True when the event has a slot this module projects (most tool.before events have none). */
function hasContentSlots(event: JsonObject): boolean {
  return 'items' in event || 'summary' in event || 'message' in event || hasNative(event);
}

/**
 * The event as `subscription` may see it. Returns `event` itself when there is nothing to
 * project, so an event without content keeps its prebuilt wire text.
 */
export function contentView<E extends object>(event: E, subscription: ContentSubscription): E {
  const source = event as unknown as JsonObject;
  if (!hasContentSlots(source)) return event;
  const withheld = { any: false };
  const out: JsonObject = { ...source };
  if (Array.isArray(source.items)) out.items = source.items.map((i) => itemView(i, subscription, withheld));
  // A summary is a list of parts; a single part is projected the same way.
  if (Array.isArray(source.summary)) {
    out.summary = source.summary.map((p) => (isJsonObject(p) ? partView(p, subscription, withheld) : p));
  } else if (isJsonObject(source.summary)) out.summary = partView(source.summary, subscription, withheld);
  const message = source.message;
  if (isJsonObject(message) && Array.isArray(message.messages)) {
    out.message = {
      ...message,
      messages: message.messages.map((m) => (isJsonObject(m) ? messageView(m, subscription, withheld) : m)),
    };
  }
  if (subscription.includeNative !== true || withheld.any) dropNative(out);
  return out as unknown as E;
}
