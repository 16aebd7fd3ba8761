/**
 * Attachment preparation (content-upload.md, "Upload before publication" and "Preparation and
 * security boundaries"): before the interceptor chain, the bytes the host owns for an
 * attachment are snapshotted once (size and SHA-256 computed once) and uploaded, concurrently,
 * to each matching subscription that configures `upload` and selects that part's body. Each
 * subscription gets its own upload and reference; metadata, omit and unmatched routes cause none.
 * Every upload ends before any event is published. Its outcome is kept by part object and
 * subscription (prepared-bodies.ts) for the content views: a confirmed upload's receipt `ref`,
 * or the gap reason of a failed one. Nothing else becomes a reference.
 */
import { sha256Hex, type UploadConfig } from '../protocol/content-upload.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../protocol/json.js';
import type { Subscription } from '../protocol/registration.js';
import { createBearerSource, type BearerAuthConfig, type BearerDeps } from './auth/bearer.js';
import type { DispatchPlan, Planned } from './dispatch.js';
import { partCategory, selectedView } from './content-selection.js';
import { keepPreparedBody } from './prepared-bodies.js';
import {
  uploadAttachment,
  type UploadResult,
  type UploadSender,
  type UploadSource,
} from './transports/upload.js';

/** The bytes the host owns for the call's attachments, by part id. */
export type OwnedAttachments = ReadonlyMap<string, Uint8Array>;

/** One confirmed upload: whose it is, of which part, and the reference its receipt returned. */
export interface ConfirmedUpload {
  backendId: string;
  subscriptionIndex: number;
  partId: string;
  ref: string;
}

/** The attachment parts of an event's content slots (items, summary, message.messages). */
function attachmentParts(event: JsonObject): JsonObject[] {
  const out: JsonObject[] = [];
  const part = (p: JsonValue) => {
    if (isJsonObject(p) && p.kind === 'attachment') out.push(p);
  };
  const message = (m: JsonValue) => {
    if (isJsonObject(m) && Array.isArray(m.parts)) m.parts.forEach(part);
  };
  if (Array.isArray(event.items)) {
    for (const item of event.items) {
      if (isJsonObject(item) && ('parts' in item || 'role' in item)) message(item);
      else part(item);
    }
  }
  if (Array.isArray(event.summary)) event.summary.forEach(part);
  else if (event.summary !== undefined) part(event.summary);
  if (isJsonObject(event.message) && Array.isArray(event.message.messages)) {
    event.message.messages.forEach(message);
  }
  return out;
}

/** What preparation may use: the call's cancellation, the host's credential sources, the sender. */
export interface PrepareDeps extends BearerDeps {
  signal: AbortSignal;
  send: UploadSender;
}

/** The upload endpoint's own Authorization value, or why it cannot be had. */
async function uploadAuthorization(
  upload: UploadConfig,
  deps: PrepareDeps,
): Promise<{ ok: true; header?: string } | { ok: false; detail: string }> {
  const auth = upload.auth;
  if (!isJsonObject(auth)) return { ok: true };
  if (auth.type !== 'bearer')
    return { ok: false, detail: `upload auth ${String(auth.type)} is not supported` };
  const source = createBearerSource(auth as unknown as BearerAuthConfig, deps);
  const result = await source.authorization({ signal: deps.signal, refresh: false });
  return result.ok ? { ok: true, header: result.header } : { ok: false, detail: result.failure.detail };
}

async function uploadFor(
  planned: Planned<Subscription>,
  upload: UploadConfig,
  source: UploadSource,
  deps: PrepareDeps,
): Promise<UploadResult> {
  const auth = await uploadAuthorization(upload, deps);
  if (!auth.ok) return { ok: false, gap: 'upload-failed', detail: auth.detail };
  return uploadAttachment(source, {
    endpoint: upload.endpoint,
    timeoutMs: upload.timeoutMs,
    maxBytes: upload.maxBytes,
    signal: deps.signal,
    backendId: planned.ref.backendId,
    send: deps.send,
    ...(auth.header === undefined ? {} : { authorization: auth.header }),
  });
}

/**
 * Uploads each owned attachment of `event` to each subscription of `plan` that configures
 * `upload` and selects its body, all at once; resolves when every upload has ended, with the
 * confirmed ones. Parts without owned bytes, and subscriptions without `upload`, get nothing
 * (their views keep a gap).
 */
export async function prepareUploads(
  event: JsonObject,
  plan: DispatchPlan,
  owned: OwnedAttachments,
  deps: PrepareDeps,
): Promise<ConfirmedUpload[]> {
  const sources = new Map<JsonObject, UploadSource>();
  for (const part of attachmentParts(event)) {
    const bytes = typeof part.id === 'string' ? owned.get(part.id) : undefined;
    if (bytes !== undefined) sources.set(part, { bytes, sha256: sha256Hex(bytes) });
  }
  if (sources.size === 0) return [];
  const routes: Planned<Subscription>[] = [...plan.intercepts, ...plan.observers];
  const pending: Promise<ConfirmedUpload | undefined>[] = [];
  for (const planned of routes) {
    const { upload, content } = planned.subscription;
    if (upload === undefined) continue;
    for (const [part, source] of sources) {
      if (selectedView(content, partCategory(part)) !== 'body') continue;
      pending.push(
        uploadFor(planned, upload, source, deps).then((result) => {
          keepPreparedBody(
            part,
            planned.subscription,
            result.ok ? { ref: result.receipt.ref } : { gap: result.gap },
          );
          if (!result.ok) return undefined;
          return {
            backendId: planned.ref.backendId,
            subscriptionIndex: planned.ref.subscriptionIndex,
            partId: part.id as string,
            ref: result.receipt.ref,
          };
        }),
      );
    }
  }
  const done = await Promise.all(pending);
  return done.filter((u): u is ConfirmedUpload => u !== undefined);
}
