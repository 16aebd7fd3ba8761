/**
 * How the content cases judge one frame's content against what was handed in. Pure.
 * AHP-CONTENT-001 (content-upload.md#AHP-CONTENT-001): canonical roles, messages and parts in the
 * order given, ordinary text inline, structured data serialized into text, no JSON part.
 * AHP-CONTENT-002 (content-upload.md#AHP-CONTENT-002): each subscription's selection decides each
 * part's view; metadata and omit views carry neither text nor body; and what a view withholds
 * appears nowhere else in the frame (no duplicate-content bypass).
 */
import { validateEvent } from '../../../protocol/event-validation.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../../protocol/json.js';
import type { Finding } from '../../common/finding.js';
import { finding } from '../kit/rules.js';
import { marker, type GivenMessage, type GivenPart } from './content-samples.js';

/** A finding of the canonical form (AHP-CONTENT-001). */
const canonical = (message: string): Finding => finding('content.canonical', message);
/** A finding of the selection (AHP-CONTENT-002). */
const selection = (message: string): Finding => finding('content.selection', message);

/** The view of a part a subscription selects. */
export type View = 'body' | 'metadata' | 'omit';

/**
 * The views a subscription may give a part: one where the draft decides, one for each reading of
 * it where it does not (an attachment whose media type it names no category for), ours first.
 */
export type ViewsOf = (part: GivenPart) => readonly View[];

/** The view a part is judged in: the one the wire gives it when that is allowed, else the first. */
function judgedView(views: readonly View[], wireSelection: JsonValue | undefined): View {
  const chosen = views.find((v) => v === wireSelection);
  return chosen ?? (views[0] as View);
}

/** How a finding names the views a subscription allows a part. */
function viewsText(views: readonly View[]): string {
  return views.length === 1 ? String(views[0]) : `${views.join(' or ')} (the draft allows either)`;
}

/**
 * The view of each part in one frame: the view the wire gives the part where the subscription
 * allows it, else the first one allowed; `slot` is the frame's content slot (messages with parts,
 * or bare parts).
 */
export function viewsInFrame(viewsOf: ViewsOf, slot: JsonValue | undefined): (part: GivenPart) => View {
  const selections = new Map<JsonValue, JsonValue | undefined>();
  const walk = (list: JsonValue | undefined): void => {
    if (!Array.isArray(list)) return;
    for (const item of list) {
      if (!isJsonObject(item)) continue;
      if (Array.isArray(item.parts)) walk(item.parts);
      else if (item.id !== undefined) selections.set(item.id, item.selection);
    }
  };
  walk(slot);
  return (part) => judgedView(viewsOf(part), selections.get(part.id));
}

/** The validator's violations of `event` that carry one of `ids`, each under its requirement's rule. */
export function contentViolations(event: JsonValue, ids: readonly string[]): Finding[] {
  return validateEvent(event, '$.params.event')
    .filter((v) => ids.includes(v.requirement))
    .map((v) => {
      const message = `${v.path} ${v.message} (${v.requirement})`;
      return v.requirement === 'AHP-CONTENT-002' ? selection(message) : canonical(message);
    });
}

/** One wire part against the given part and the views it may be in. */
function partProblems(given: GivenPart, wire: JsonValue, views: readonly View[], at: string): Finding[] {
  if (!isJsonObject(wire)) return [canonical(`${at} is not a part object`)];
  const view = judgedView(views, wire.selection);
  const out: Finding[] = [];
  if (wire.id !== given.id) {
    out.push(canonical(`${at} is part "${String(wire.id)}" where "${given.id}" was given`));
  }
  if (wire.kind !== given.kind) {
    out.push(
      canonical(
        `${at} (${given.id}) has kind ${JSON.stringify(wire.kind)}: a ${given.kind} part stays ${given.kind}` +
          (given.structured ? ' (structured data is serialized into text; there is no JSON part)' : ''),
      ),
    );
  }
  if (wire.mediaType !== given.mediaType) {
    out.push(
      canonical(
        `${at} (${given.id}) has mediaType ${JSON.stringify(wire.mediaType)}, not ${given.mediaType}`,
      ),
    );
  }
  // Only reasoning must keep its category on the wire (content-upload.md: producers keep a known
  // reasoning classification); of other categories the draft asks only that selection honours them.
  if (given.category === 'reasoning' && wire.category !== 'reasoning') {
    out.push(
      canonical(
        `${at} (${given.id}) has category ${JSON.stringify(wire.category)}: known reasoning stays category "reasoning"`,
      ),
    );
  }
  if (wire.selection !== view) {
    out.push(
      selection(
        `${at} (${given.id}) is a ${JSON.stringify(wire.selection)} view; the subscription selects ${viewsText(views)}`,
      ),
    );
  }
  if (view !== 'body') {
    for (const key of ['text', 'body'] as const) {
      if (key in wire) out.push(selection(`${at} (${given.id}) is a ${view} view carrying ${key}`));
    }
    return out;
  }
  // A text the host handed in without its text is a missing requested body: a body view, a gap.
  if (given.kind === 'text' && given.text === undefined) {
    if (!isJsonObject(wire.gap) || 'text' in wire) {
      out.push(
        selection(
          `${at} (${given.id}) is ${JSON.stringify(wire)}: the host has no text of it, so its body view is selection body with a gap {reason}`,
        ),
      );
    }
    return out;
  }
  if (given.kind === 'text' && !('gap' in wire) && wire.text !== given.text) {
    out.push(
      canonical(
        `${at} (${given.id}) does not carry the given text inline` +
          (given.structured ? ' (structured data stays the text it was serialized into)' : ''),
      ),
    );
  }
  return out;
}

/** Problems of a message list on the wire against the given messages, in order. */
export function messageListProblems(
  given: readonly GivenMessage[],
  wire: JsonValue | undefined,
  viewsOf: ViewsOf,
  at: string,
): Finding[] {
  if (!Array.isArray(wire)) return [canonical(`${at} is missing or not a list`)];
  const ids = wire.map((m) => (isJsonObject(m) ? m.id : undefined));
  if (JSON.stringify(ids) !== JSON.stringify(given.map((m) => m.id))) {
    return [
      canonical(
        `${at} holds messages ${JSON.stringify(ids)}; given were ${JSON.stringify(given.map((m) => m.id))}`,
      ),
    ];
  }
  return given.flatMap((message, i) => {
    const w = wire[i] as JsonObject;
    const out: Finding[] = [];
    if (w.role !== message.role) {
      out.push(
        canonical(`${at}[${i}] (${message.id}) has role ${JSON.stringify(w.role)}, given ${message.role}`),
      );
    }
    out.push(...partListProblems(message.parts, w.parts, viewsOf, `${at}[${i}].parts`));
    return out;
  });
}

/** Problems of a part list on the wire against the given parts, in order. */
export function partListProblems(
  given: readonly GivenPart[],
  wire: JsonValue | undefined,
  viewsOf: ViewsOf,
  at: string,
): Finding[] {
  if (!Array.isArray(wire)) return [canonical(`${at} is missing or not a list`)];
  const ids = wire.map((p) => (isJsonObject(p) ? p.id : undefined));
  if (JSON.stringify(ids) !== JSON.stringify(given.map((p) => p.id))) {
    return [
      canonical(
        `${at} holds parts ${JSON.stringify(ids)}; given were ${JSON.stringify(given.map((p) => p.id))}`,
      ),
    ];
  }
  return given.flatMap((part, i) => partProblems(part, wire[i] as JsonValue, viewsOf(part), `${at}[${i}]`));
}

/**
 * The parts whose content a frame must not hold anywhere: those its view withholds. Each given
 * text and reference holds the part's marker, so finding the marker finds the copy.
 */
export function leakProblems(
  frameText: string,
  nonce: string,
  given: readonly GivenPart[],
  viewOf: (part: GivenPart) => View,
): Finding[] {
  return given
    .filter((p) => viewOf(p) !== 'body' && frameText.includes(marker(nonce, p.id)))
    .map((p) =>
      selection(
        `the content of part ${p.id}, selected ${viewOf(p)}, is in the frame all the same ` +
          `(${whereIs(frameText, marker(nonce, p.id))})`,
      ),
    );
}

/** Where a marker sits in a frame, as the JSON path of the first string holding it. */
function whereIs(frameText: string, mark: string): string {
  let parsed: JsonValue;
  try {
    parsed = JSON.parse(frameText) as JsonValue;
  } catch {
    return 'in bytes that are not JSON';
  }
  const walk = (value: JsonValue, path: string): string | undefined => {
    if (typeof value === 'string') return value.includes(mark) ? path : undefined;
    if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) {
        const found = walk(v, `${path}[${i}]`);
        if (found) return found;
      }
      return undefined;
    }
    if (isJsonObject(value)) {
      for (const [k, v] of Object.entries(value)) {
        const found = walk(v, `${path}.${k}`);
        if (found) return found;
      }
    }
    return undefined;
  };
  return `at ${walk(parsed, '$') ?? 'a key'}`;
}

/**
 * The uploads one subscription caused (content-upload.md): only non-text, non-JSON media are
 * uploaded, so no upload body holds a text part's content or is JSON; and metadata or omit
 * selection causes no upload at all.
 */
export function uploadProblems(
  posts: readonly string[],
  nonce: string,
  given: readonly GivenPart[],
  viewsOf: ViewsOf,
): Finding[] {
  const out: Finding[] = [];
  // Uploads are judged apart from the frames: a part any allowed view gives a body may cause one.
  const withBody = given.filter((p) => viewsOf(p).includes('body'));
  if (posts.length > 0 && withBody.length === 0) {
    out.push(
      selection(
        `${posts.length} upload(s) for a subscription that selects no body (metadata and omit cause no upload)`,
      ),
    );
  }
  posts.forEach((body, i) => {
    for (const part of given) {
      if (part.kind === 'text' && body.includes(marker(nonce, part.id))) {
        out.push(
          selection(`upload ${i + 1} holds the text of part ${part.id}: text stays inline, never uploaded`),
        );
      }
    }
    if (/^\s*[[{]/.test(body) && isJson(body)) {
      out.push(selection(`upload ${i + 1} is JSON: JSON is never uploaded`));
    }
  });
  return out;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Attachment parts of a content slot that carry a ready `body` reference although the upload
 * endpoint confirmed none (the mock never answers an upload with a 201 receipt): a failed upload
 * must never yield a ready reference (a gap, a suppressed delivery or the failure policy instead).
 */
export function unconfirmedRefProblems(slot: JsonValue | undefined, at: string): Finding[] {
  const parts: { part: JsonValue; path: string }[] = [];
  if (Array.isArray(slot)) {
    slot.forEach((item, i) => {
      if (isJsonObject(item) && Array.isArray(item.parts)) {
        item.parts.forEach((p, j) => parts.push({ part: p, path: `${at}[${i}].parts[${j}]` }));
      } else parts.push({ part: item, path: `${at}[${i}]` });
    });
  }
  return parts
    .filter(({ part }) => isJsonObject(part) && part.kind === 'attachment' && 'body' in part)
    .map(({ part, path }) =>
      selection(
        `${path} (${String((part as JsonObject).id)}) carries body ${JSON.stringify((part as JsonObject).body)}, ` +
          'a reference no upload receipt confirmed',
      ),
    );
}

/**
 * The ids of the parts of a content slot (a list of messages, of bare parts, or both) that a
 * body view could only give as a gap: their body is withheld all the same.
 */
export function gapPartIds(slot: JsonValue | undefined): string[] {
  if (!Array.isArray(slot)) return [];
  const parts = slot.flatMap((item) =>
    isJsonObject(item) && Array.isArray(item.parts) ? item.parts : [item],
  );
  return parts.flatMap((p) => (isJsonObject(p) && 'gap' in p && typeof p.id === 'string' ? [p.id] : []));
}
