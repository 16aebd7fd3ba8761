/**
 * Opaque `native` data in the content cases (AHP-CONTENT-002, content-upload.md "Preparation and
 * security boundaries": `includeNative` is off by default, and selection covers duplicate bodies
 * in native data too). The draft's event schemas give `native` two places: the event itself, on
 * every event, and the `error` object of model.error, turn.end and a failed tool.after. The cases
 * hand in a native value at one of them holding a copy of every text of the conversation, so a
 * view that withholds a text and still carries the native copy leaks it, and a subscription that
 * never asked for native data shows whether it got some (includeNative absent or false, the
 * default). A view withholds a part when it selects metadata or omit for it, and also when it
 * selects the body but can only give a gap (an attachment nothing was uploaded for): native data
 * beside a gap would carry the body the gap stands for. Taking native out must leave the rest of
 * its place as it was: an error keeps its class and message, and an event that had no error gets
 * none. Pure.
 */
import { isDeepStrictEqual } from 'node:util';
import { isJsonObject, type JsonObject, type JsonValue } from '../../../protocol/json.js';
import type { Finding } from '../../common/finding.js';
import { finding } from '../kit/rules.js';
import type { GivenMessage } from './content-samples.js';

/** A place the schemas give `native`: the event's own, or its error's. */
export type NativeSite = 'event' | 'error';

/** The JSON path of a site inside a frame's event. */
export const NATIVE_PATHS: Readonly<Record<NativeSite, string>> = {
  event: '$.params.event.native',
  error: '$.params.event.error.native',
};

/** The native value the host hands in: a copy of every text and attachment reference it has. */
export function nativeCopy(messages: readonly GivenMessage[]): JsonObject {
  return {
    transcript: messages.flatMap((m) => m.parts.map((p) => p.text ?? p.ref ?? p.id)),
  };
}

/**
 * Puts `native` at `site` of an event payload. The error site needs a failed call: the payload
 * (a tool.after) becomes one whose tool exited with an error, as the schema's error rule allows.
 */
export function placeNative(site: NativeSite, payload: JsonObject, native: JsonValue): void {
  if (site === 'event') {
    payload.native = native;
    return;
  }
  payload.outcome = 'error';
  payload.error = { class: 'tool', message: 'the command exited with status 2', native };
}

/** What a frame's event holds at each site that has something. */
export function nativeFound(event: JsonObject): Partial<Record<NativeSite, JsonValue>> {
  const found: Partial<Record<NativeSite, JsonValue>> = {};
  if ('native' in event) found.event = event.native as JsonValue;
  if (isJsonObject(event.error) && 'native' in event.error) found.error = event.error.native as JsonValue;
  return found;
}

/** Findings of a frame to a subscription that did not set `includeNative`: any native is one. */
export function unaskedNativeProblems(event: JsonObject): Finding[] {
  return Object.keys(nativeFound(event)).map((site) =>
    finding(
      'content.native',
      `${NATIVE_PATHS[site as NativeSite]} is present, though the subscription did not set includeNative (off by default)`,
    ),
  );
}

/** The event without native data at either site (a copy): what the rest of the checks read. */
export function withoutNative(event: JsonObject): JsonObject {
  const out: JsonObject = { ...event };
  delete out.native;
  if (isJsonObject(out.error)) {
    const error: JsonObject = { ...out.error };
    delete error.native;
    out.error = error;
  }
  return out;
}

/**
 * Findings of a frame to a subscription that set `includeNative`: native data may come, but
 * nothing its view withholds may be in it (`withheld` are the markers of those parts, by id).
 */
export function nativeLeakProblems(event: JsonObject, withheld: ReadonlyMap<string, string>): Finding[] {
  return Object.entries(nativeFound(event)).flatMap(([site, value]) => {
    const text = JSON.stringify(value);
    return [...withheld]
      .filter(([, mark]) => text.includes(mark))
      .map(([partId]) =>
        finding(
          'content.native',
          `${NATIVE_PATHS[site as NativeSite]} holds the content of part ${partId}, which the subscription's view withholds`,
        ),
      );
  });
}

/**
 * The event's `error` against the one handed in (`given`, undefined when none was), native apart:
 * projecting native out of the error keeps its normalized fields, and invents no error.
 */
export function errorKeptProblems(event: JsonObject, given: JsonValue | undefined): Finding[] {
  const sent = event.error;
  const bare = (e: JsonValue | undefined) => (isJsonObject(e) ? withoutNative({ error: e }).error : e);
  if (given === undefined) {
    return sent === undefined
      ? []
      : [
          finding(
            'content.native-projection',
            `$.params.event.error is ${JSON.stringify(sent)}, though the host handed in no error`,
          ),
        ];
  }
  if (isDeepStrictEqual(bare(sent), bare(given))) return [];
  return [
    finding(
      'content.native-projection',
      `$.params.event.error is ${JSON.stringify(bare(sent) ?? null)} apart from native; the host handed in ${JSON.stringify(bare(given))}`,
    ),
  ];
}

/**
 * Every native finding of one frame: to a subscription that did not ask (`asked` false), any
 * native data; to one that did, native data holding what its view withholds; to both, an error
 * that is not the one handed in.
 */
export function nativeProblems(
  event: JsonObject,
  asked: boolean,
  withheld: ReadonlyMap<string, string>,
  givenError: JsonValue | undefined,
): Finding[] {
  return [
    ...(asked ? nativeLeakProblems(event, withheld) : unaskedNativeProblems(event)),
    ...errorKeptProblems(event, givenError),
  ];
}
