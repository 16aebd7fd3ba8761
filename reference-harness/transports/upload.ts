/**
 * One attachment upload (content-upload.md, "Request framing" and "Confirmation and errors"): a
 * POST of the raw octets to the exact configured endpoint (path and query kept, nothing
 * appended, no redirect followed), framed with `Content-Type: application/octet-stream`, the
 * exact `Content-Length` and `AHP-Content-SHA256`. It is confirmed only by a `201` JSON receipt
 * whose size and digest are those of the bytes sent; anything else is a failed upload, with why.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { confirmedReceipt, type UploadReceipt } from '../../protocol/content-upload.js';
import { checkBackendUrl } from './http-url.js';

/** The bytes to upload, with their size and digest computed once. */
export interface UploadSource {
  bytes: Uint8Array;
  sha256: string;
}

/** How one upload ended: the confirmed receipt, or the gap reason and what went wrong. */
export type UploadResult =
  | { ok: true; receipt: UploadReceipt }
  | { ok: false; gap: 'upload-failed' | 'upload-timeout' | 'upload-too-large'; detail: string };

/** What one upload may use: its own budget, the call's cancellation, and its own credentials. */
export interface UploadOptions {
  endpoint: string;
  timeoutMs: number;
  maxBytes: number;
  /** The upload endpoint's own `Authorization` value, when `upload.auth` gives one. */
  authorization?: string;
  /** The call's cancellation (interruption, the enclosing budget, shutdown). */
  signal: AbortSignal;
}

/** A receipt is small: a longer answer is not one. */
const MAX_RECEIPT_BYTES = 64 * 1024;

/** Uploads `source` as `options` say; never throws. */
export async function uploadAttachment(source: UploadSource, options: UploadOptions): Promise<UploadResult> {
  if (source.bytes.length > options.maxBytes) {
    return {
      ok: false,
      gap: 'upload-too-large',
      detail: `${source.bytes.length} octets exceed maxBytes ${options.maxBytes}`,
    };
  }
  let url: URL;
  try {
    url = checkBackendUrl(options.endpoint);
  } catch (error) {
    return { ok: false, gap: 'upload-failed', detail: (error as Error).message };
  }
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([timeout, options.signal]);
  try {
    const response = await post(url, source, options.authorization, signal);
    const checked = confirmedReceipt(response, { size: source.bytes.length, sha256: source.sha256 });
    return checked.ok ? checked : { ok: false, gap: 'upload-failed', detail: checked.reason };
  } catch (error) {
    if (timeout.aborted) {
      return { ok: false, gap: 'upload-timeout', detail: `no receipt within ${options.timeoutMs} ms` };
    }
    return { ok: false, gap: 'upload-failed', detail: (error as Error).message };
  }
}

interface Answer {
  status: number;
  contentType: string | undefined;
  body: Uint8Array;
}

function post(
  url: URL,
  source: UploadSource,
  authorization: string | undefined,
  signal: AbortSignal,
): Promise<Answer> {
  const headers: Record<string, string | number> = {
    'content-type': 'application/octet-stream',
    'content-length': source.bytes.length,
    'ahp-content-sha256': source.sha256,
  };
  if (authorization !== undefined) headers.authorization = authorization;
  const request = url.protocol === 'https:' ? https.request : http.request;
  return new Promise<Answer>((resolve, reject) => {
    // An agent of its own: an upload never shares, or keeps open, the event transport's sockets.
    const req = request(url, { method: 'POST', headers, signal, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_RECEIPT_BYTES) req.destroy(new Error('the upload answer is too large for a receipt'));
        else chunks.push(chunk);
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: res.headers['content-type'],
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(source.bytes);
  });
}
