import type { JsonValue } from '../../protocol/json.js';
import type { TransportFailure, TransportReply } from '../transport.js';
import { failedReply, preview, transportFailure } from './failure-codes.js';

/** Default cap on an HTTP response body; larger bodies are malformed, not buffered. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** True for `application/json` or any `type/subtype+json`, parameters allowed. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const essence = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return essence === 'application/json' || /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(essence);
}

/** The failure for a status that is not what the exchange needed (redirects are never followed). */
export function statusFailure(status: number, location: string | undefined): TransportFailure {
  if (status >= 300 && status < 400) {
    const to = location === undefined ? '' : ` to ${JSON.stringify(location)}`;
    return transportFailure('http.redirect', `HTTP ${status} redirect${to} (redirects are not followed)`);
  }
  return transportFailure('http.status', `HTTP ${status}`);
}

/** Decodes a 200 body: exactly one JSON value in fatal UTF-8. */
export function decodeJsonBody(body: Uint8Array): TransportReply {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return failedReply('http.body-not-utf8', `the response body is not valid UTF-8: ${preview(body)}`, body);
  }
  let message: JsonValue;
  try {
    message = JSON.parse(text) as JsonValue;
  } catch {
    return failedReply(
      'http.body-not-json',
      `the response body is not one JSON value: ${preview(body)}`,
      body,
    );
  }
  return { ok: true, message, raw: body };
}
