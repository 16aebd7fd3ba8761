/**
 * One attachment upload (content-upload.md, "Request framing" and "Confirmation and errors"): a
 * POST of the raw octets to the exact configured endpoint (path and query kept, nothing
 * appended, no redirect followed), framed with `Content-Type: application/octet-stream`, the
 * exact `Content-Length` and `AHP-Content-SHA256`. It is confirmed only by a `201` JSON receipt
 * whose size and digest are those of the bytes sent; anything else is a failed upload, with why.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import {
  CONTENT_SHA256_HEADER,
  confirmedReceipt,
  type UploadReceipt,
  type UploadResponse,
} from '../../protocol/content-upload.js';
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

/** One upload POST as it goes out: the exact endpoint, the framing headers and the raw octets. */
export interface UploadPost {
  url: URL;
  /** Names lower-cased: the framing, and `authorization` when the upload has its own. */
  headers: Record<string, string>;
  body: Uint8Array;
  signal: AbortSignal;
  /** The backend whose subscription the upload is for. */
  backendId: string;
}

/**
 * Sends one upload POST and reads its answer; rejects when the exchange fails. A caller may
 * inject its own (HarnessOptions.uploadSender), as it may inject transports.
 */
export type UploadSender = (post: UploadPost) => Promise<UploadResponse>;

/** What one upload may use: its own budget, the call's cancellation, and its own credentials. */
export interface UploadOptions {
  endpoint: string;
  timeoutMs: number;
  maxBytes: number;
  /** The upload endpoint's own `Authorization` value, when `upload.auth` gives one. */
  authorization?: string;
  /** The call's cancellation (interruption, the enclosing budget, shutdown). */
  signal: AbortSignal;
  /** The backend whose subscription the upload is for. */
  backendId: string;
  /** How the POST is sent (default: over HTTP or HTTPS). */
  send?: UploadSender;
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
  const headers: Record<string, string> = {
    'content-type': 'application/octet-stream',
    'content-length': String(source.bytes.length),
    [CONTENT_SHA256_HEADER]: source.sha256,
  };
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  const send = options.send ?? sendUploadOverHttp;
  try {
    const response = await send({ url, headers, body: source.bytes, signal, backendId: options.backendId });
    const checked = confirmedReceipt(response, { size: source.bytes.length, sha256: source.sha256 });
    return checked.ok ? checked : { ok: false, gap: 'upload-failed', detail: checked.reason };
  } catch (error) {
    if (timeout.aborted) {
      return { ok: false, gap: 'upload-timeout', detail: `no receipt within ${options.timeoutMs} ms` };
    }
    return { ok: false, gap: 'upload-failed', detail: (error as Error).message };
  }
}

/** The default sender: one request over HTTP or HTTPS, with an agent of its own. */
export const sendUploadOverHttp: UploadSender = (post) => {
  const request = post.url.protocol === 'https:' ? https.request : http.request;
  return new Promise<UploadResponse>((resolve, reject) => {
    // An agent of its own: an upload never shares, or keeps open, the event transport's sockets.
    const req = request(
      post.url,
      { method: 'POST', headers: post.headers, signal: post.signal, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RECEIPT_BYTES)
            req.destroy(new Error('the upload answer is too large for a receipt'));
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
      },
    );
    req.on('error', reject);
    req.end(post.body);
  });
};
