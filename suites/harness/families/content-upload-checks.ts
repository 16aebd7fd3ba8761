/**
 * How the upload cases judge one subscription's uploads and frames (content-upload.md). Pure.
 * Framing: each POST went to the exact configured path and query, carried the handed-in octets
 * themselves (not base64, JSON or re-encoded), and was framed as the binding says (the mock
 * records the faults it saw). Receipt: only a `201` JSON receipt whose size and digest are those
 * of the octets makes a reference; the event carries exactly that receipt's ref, published only
 * after the receipt was sent; after a failed upload no attachment carries a reference at all.
 * What the driver reports as uploaded (`uploads`, driver protocol v1.2) must agree.
 */
import type { DriverConfirmedUpload } from '../../../protocol/driver-protocol/index.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../../protocol/json.js';
import type { Finding } from '../../common/finding.js';
import { UPLOAD_TARGET } from '../kit/backend-set.js';
import { finding } from '../kit/rules.js';
import type { UploadPost } from '../kit/upload-records.js';

const framing = (message: string): Finding => finding('content.upload-framing', message);
const receipt = (message: string): Finding => finding('content.upload-receipt', message);

/** The attachment the host handed in: its part id and octets. */
export interface GivenAttachment {
  partId: string;
  size: number;
  sha256: string;
}

/** The framing of each upload POST a subscription caused. */
export function uploadFramingProblems(posts: readonly UploadPost[], given: GivenAttachment): Finding[] {
  return posts.flatMap((post, i) => {
    const at = `upload ${i + 1}`;
    const out: Finding[] = [];
    if (post.path !== UPLOAD_TARGET) {
      out.push(framing(`${at} went to ${post.path}; the configured endpoint is ${UPLOAD_TARGET}`));
    }
    for (const fault of post.framing) out.push(framing(`${at}: ${fault}`));
    if (post.sha256 !== given.sha256) {
      out.push(
        framing(
          `${at} sent ${post.size} octets that are not the attachment's ${given.size} ` +
            '(the body must be its raw octets: not base64, JSON-wrapped or re-encoded)',
        ),
      );
    }
    return out;
  });
}

/** The refs of the receipts that confirm an upload of `given`: 201, JSON, its size and digest. */
export function confirmingRefs(posts: readonly UploadPost[], given: GivenAttachment): Set<string> {
  const refs = new Set<string>();
  for (const post of posts) {
    const r = post.receipt;
    if (post.status !== 201 || !isJsonObject(r) || typeof r.ref !== 'string') continue;
    if (post.sha256 === given.sha256 && r.size === given.size && r.sha256 === given.sha256) refs.add(r.ref);
  }
  return refs;
}

/** Every receipt ref the endpoint sent, confirming or not. */
function sentRefs(posts: readonly UploadPost[]): Set<string> {
  return new Set(
    posts.flatMap((p) =>
      isJsonObject(p.receipt) && typeof p.receipt.ref === 'string' ? [p.receipt.ref] : [],
    ),
  );
}

/** The attachment parts of a content slot with their JSON paths. */
function attachmentsOf(slot: JsonValue | undefined, at: string): { part: JsonObject; path: string }[] {
  const out: { part: JsonObject; path: string }[] = [];
  const add = (p: JsonValue, path: string) => {
    if (isJsonObject(p) && p.kind === 'attachment') out.push({ part: p, path });
  };
  if (Array.isArray(slot)) {
    slot.forEach((item, i) => {
      if (isJsonObject(item) && Array.isArray(item.parts)) {
        item.parts.forEach((p, j) => add(p, `${at}[${i}].parts[${j}]`));
      } else add(item, `${at}[${i}]`);
    });
  }
  return out;
}

/** A schema-valid content gap: `{reason}` with a non-empty reason (content-item.schema.json). */
function isGap(gap: JsonValue | undefined): boolean {
  return isJsonObject(gap) && typeof gap.reason === 'string' && gap.reason.length > 0;
}

/** What one subscription's frames must show about its attachment. */
export interface FrameExpectation {
  given: GivenAttachment;
  posts: readonly UploadPost[];
  /** True when the endpoint was scripted to confirm: the frame must carry its ref. */
  confirms: boolean;
}

/**
 * One frame's attachment against the uploads: with a confirming receipt, `body` is exactly
 * `{ref}` of one, and the receipt left before the frame arrived; without one, no reference, and a body view is an explicit gap {reason}.
 */
export function frameReferenceProblems(
  slot: JsonValue | undefined,
  where: string,
  arrivedAtWallMs: number,
  expected: FrameExpectation,
): Finding[] {
  const { given, posts } = expected;
  const confirming = confirmingRefs(posts, given);
  const sent = sentRefs(posts);
  const found = attachmentsOf(slot, where).filter(({ part }) => part.id === given.partId);
  if (found.length === 0) return [];
  return found.flatMap(({ part, path }): Finding[] => {
    const body = part.body;
    if (body === undefined) {
      if (expected.confirms && confirming.size > 0) {
        return [
          receipt(
            `${path} (${given.partId}) has no body although the upload was confirmed (receipt ref ${[...confirming].join(', ')})`,
          ),
        ];
      }
      // Without a reference the body-selected part is an explicit, schema-valid gap: {reason}.
      return part.selection !== 'body' || isGap(part.gap)
        ? []
        : [
            receipt(
              `${path} (${given.partId}) has neither a body nor a gap {reason} (it is ${JSON.stringify(part.gap)}): a failed upload leaves an explicit schema-valid content gap`,
            ),
          ];
    }
    const ref = isJsonObject(body) ? body.ref : undefined;
    if (typeof ref === 'string' && confirming.has(ref)) {
      const out: Finding[] = [];
      if (Object.keys(body as JsonObject).length !== 1) {
        out.push(receipt(`${path}.body is ${JSON.stringify(body)}; a ready reference is exactly {ref}`));
      }
      const answered = posts.find((p) => isJsonObject(p.receipt) && p.receipt.ref === ref)?.answeredAtWallMs;
      if (answered !== undefined && answered > arrivedAtWallMs) {
        out.push(
          receipt(`${path} carries ref ${ref} in a frame that arrived before its upload's receipt was sent`),
        );
      }
      return out;
    }
    const why =
      typeof ref === 'string' && sent.has(ref)
        ? `the receipt that returned it does not confirm the upload (not 201, or its size or sha256 is not the bytes')`
        : 'no upload receipt returned it';
    return [receipt(`${path} (${given.partId}) carries body ${JSON.stringify(body)}: ${why}`)];
  });
}

/** The subscription caused no upload although it selects the body and configures `upload`. */
export function missingUploadProblem(posts: readonly UploadPost[], given: GivenAttachment): Finding[] {
  return posts.length > 0
    ? []
    : [
        receipt(
          `no upload of attachment ${given.partId}: a body-selected attachment is uploaded to the subscription's configured endpoint before the event is published`,
        ),
      ];
}

/**
 * What the driver reports as uploaded for one backend against the receipts: every reported ref
 * is a confirming one; with `confirms`, the attachment is among them.
 */
export function reportedUploadProblems(
  reported: readonly DriverConfirmedUpload[] | undefined,
  backendId: string,
  expected: FrameExpectation,
): Finding[] {
  if (reported === undefined) return [];
  const confirming = confirmingRefs(expected.posts, expected.given);
  const mine = reported.filter((u) => u.backendId === backendId && u.partId === expected.given.partId);
  const out = mine
    .filter((u) => !confirming.has(u.ref))
    .map((u) =>
      receipt(
        `the driver reports ref ${u.ref} of ${u.partId} as uploaded; no matching 201 receipt returned it`,
      ),
    );
  if (expected.confirms && confirming.size > 0 && !mine.some((u) => confirming.has(u.ref))) {
    out.push(receipt(`the driver's uploads do not list the confirmed upload of ${expected.given.partId}`));
  }
  return out;
}

/**
 * Uploads that carry the event delivery's bearer token: the subscription configures no
 * `upload.auth`, so the event credentials must not migrate to the upload endpoint.
 */
export function eventCredentialProblems(posts: readonly UploadPost[], eventToken: string): Finding[] {
  return posts.flatMap((post, i) =>
    Object.entries(post.headers).some(([, value]) => value.includes(eventToken))
      ? [
          finding(
            'content.upload-auth',
            `upload ${i + 1} carries the event delivery's bearer token (${Object.keys(post.headers)
              .filter((name) => (post.headers[name] ?? '').includes(eventToken))
              .join(', ')}); upload credentials are resolved on their own`,
          ),
        ]
      : [],
  );
}
