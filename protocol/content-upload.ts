/**
 * The HTTP upload binding of binary attachments (content-upload.md, "Request framing" and
 * "Confirmation and errors"), as pure checks both sides share: the sender's framing of one POST,
 * and the receipt that alone confirms it. Only `201 Created` with a JSON receipt
 * `{ref, size, sha256}` whose size and digest match the exact bytes sent confirms an upload.
 */
import { createHash } from 'node:crypto';
import { isJsonObject, type JsonValue } from './json.js';

/** The header carrying the body's digest. */
export const CONTENT_SHA256_HEADER = 'ahp-content-sha256';

/** The configured upload of a subscription (content-upload.schema.json). */
export interface UploadConfig {
  endpoint: string;
  timeoutMs: number;
  maxBytes: number;
  auth?: JsonValue;
}

/** A receipt that confirmed an upload. */
export interface UploadReceipt {
  ref: string;
  size: number;
  sha256: string;
}

/** Lowercase SHA-256 hex of exact bytes. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const HEX64 = /^[a-f0-9]{64}$/;

/** One upload request as a receiver saw it: method, header map (names lower-cased) and body. */
export interface UploadRequest {
  method: string;
  headers: Readonly<Record<string, string>>;
  body: Uint8Array;
}

/**
 * What is wrong with one upload request's framing: POST, `Content-Type: application/octet-stream`,
 * a `Content-Length` equal to the body's octets (no chunked transfer), and `AHP-Content-SHA256`
 * the lowercase hex digest of those octets. Empty when the framing is right.
 */
export function uploadFramingProblems(request: UploadRequest): string[] {
  const out: string[] = [];
  const { headers, body } = request;
  if (request.method.toUpperCase() !== 'POST') out.push(`the upload used ${request.method}, not POST`);
  const mediaType = (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/octet-stream') {
    out.push(
      `Content-Type is ${mediaType ? `'${headers['content-type']}'` : 'missing'}, not application/octet-stream`,
    );
  }
  if (headers['content-encoding'] !== undefined) {
    out.push(`the body is content-encoded (${headers['content-encoding']}); it must be the raw octets`);
  }
  const length = headers['content-length'];
  if (length === undefined) {
    out.push(
      headers['transfer-encoding'] !== undefined
        ? `the body was sent with Transfer-Encoding ${headers['transfer-encoding']}, without Content-Length`
        : 'Content-Length is missing',
    );
  } else if (!/^[0-9]+$/.test(length) || Number(length) !== body.length) {
    out.push(`Content-Length is ${length}; the body holds ${body.length} octets`);
  }
  const digest = headers[CONTENT_SHA256_HEADER];
  if (digest === undefined) out.push('AHP-Content-SHA256 is missing');
  else if (!HEX64.test(digest)) {
    out.push(`AHP-Content-SHA256 '${digest}' is not 64 lowercase hex characters`);
  } else if (digest !== sha256Hex(body)) {
    out.push('AHP-Content-SHA256 is not the SHA-256 of the body received');
  }
  return out;
}

/** An upload response as the sender received it. */
export interface UploadResponse {
  status: number;
  contentType: string | undefined;
  body: Uint8Array;
}

/**
 * The receipt if `response` confirms the upload of `sent`, else why not: `201`, JSON, exactly
 * `{ref, size, sha256}` with a non-empty ref, and size and digest those of the bytes sent.
 */
export function confirmedReceipt(
  response: UploadResponse,
  sent: { size: number; sha256: string },
): { ok: true; receipt: UploadReceipt } | { ok: false; reason: string } {
  if (response.status !== 201) return { ok: false, reason: `status ${response.status}, not 201` };
  const mediaType = (response.contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    return { ok: false, reason: `a 201 answered as ${response.contentType ?? 'no media type'}, not JSON` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(response.body));
  } catch {
    return { ok: false, reason: 'the receipt is not JSON' };
  }
  if (!isJsonObject(parsed)) return { ok: false, reason: 'the receipt is not an object' };
  const extra = Object.keys(parsed).filter((k) => k !== 'ref' && k !== 'size' && k !== 'sha256');
  if (extra.length > 0) return { ok: false, reason: `the receipt has unknown members ${extra.join(', ')}` };
  const { ref, size, sha256 } = parsed;
  if (typeof ref !== 'string' || ref.length === 0) return { ok: false, reason: 'the receipt has no ref' };
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 0) {
    return { ok: false, reason: 'the receipt has no valid size' };
  }
  if (typeof sha256 !== 'string' || !HEX64.test(sha256)) {
    return { ok: false, reason: 'the receipt has no valid sha256' };
  }
  if (size !== sent.size)
    return { ok: false, reason: `the receipt says ${size} octets; ${sent.size} were sent` };
  if (sha256 !== sent.sha256)
    return { ok: false, reason: 'the receipt digest is not that of the bytes sent' };
  return { ok: true, receipt: { ref, size, sha256 } };
}
