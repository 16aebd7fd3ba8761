/**
 * What attachment preparation (attachment-uploads.ts) produced for each attachment part of a
 * call and each subscription: the reference its upload receipt confirmed, or the gap reason of
 * a failed upload. Kept by the part object of the call's event, so calls never see each other's
 * outcomes, and read by the content views (content-selection.ts).
 */
import type { JsonObject } from '../protocol/json.js';

/** A subscription's body of one attachment: its confirmed reference, or why there is none. */
export type PreparedBody = { ref: string } | { gap: string };

const prepared = new WeakMap<JsonObject, Map<object, PreparedBody>>();

/** What preparation produced for `part` and `subscription`; undefined when nothing was prepared. */
export function preparedBody(part: JsonObject, subscription: object): PreparedBody | undefined {
  return prepared.get(part)?.get(subscription);
}

/** Keeps what preparation produced for `part` and `subscription`. */
export function keepPreparedBody(part: JsonObject, subscription: object, body: PreparedBody): void {
  let bodies = prepared.get(part);
  if (!bodies) prepared.set(part, (bodies = new Map()));
  bodies.set(subscription, body);
}
