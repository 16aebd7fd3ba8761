/**
 * The upload path of a body-selected attachment (AHP-CONTENT-002, content-upload.md "Request
 * framing", "Confirmation and errors", "Upload before publication"), one case per way an upload
 * endpoint answers. The driver hands in the attachment's bytes (driver protocol v1.2,
 * `bodyBase64`, `features.uploads`); each subscription configures `upload` with an endpoint of
 * its own (a mock that checks the framing and answers as scripted) and selects every body.
 * Confirmed (201 and the receipt of the bytes): each subscription's event carries exactly the
 * ref its own receipt returned, published after that receipt. Refused (400 for framing or a
 * length/hash mismatch, 401 for missing or invalid credentials, 403 for the scope), a receipt whose
 * sha256 is not the bytes', a receipt later than the upload's timeoutMs, no answer at all: the
 * upload failed ("Confirmation and errors": other than a valid 201 receipt fails the upload), so no
 * attachment carries a reference (a gap, a suppressed delivery or the failure policy instead).
 * With bearer authentication on the event deliveries and no `upload.auth`, the upload carries
 * none of the event credentials.
 * In every case each upload went to the exact endpoint with the raw octets, framed as the binding
 * says, and what the driver reports as uploaded agrees with the receipts.
 */
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../../protocol/content-upload.js';
import { isJsonObject } from '../../../protocol/json.js';
import type { Behaviour } from '../../../mock-backend/index.js';
import { CaseFailure, type Finding } from '../../common/finding.js';
import { driverCase } from '../kit/define.js';
import type { HarnessFixture } from '../kit/fixture.js';
import { finding, prefixed } from '../kit/rules.js';
import { contentViolations } from './content-checks.js';
import {
  raiseWithContent,
  selectionEventOrUntested,
  withAttachmentBytes,
  type ContentSubscriptionSpec,
  type Received,
} from './content-raise.js';
import {
  eventCredentialProblems,
  frameReferenceProblems,
  missingUploadProblem,
  reportedUploadProblems,
  uploadFramingProblems,
  type GivenAttachment,
} from './content-upload-checks.js';
import { CONTENT_EVENTS, givenConversation, wireSlot } from './content-samples.js';

/** The upload timeout of the slow and silent endpoints: short, so the case stays short. */
const SHORT_UPLOAD_MS = 150;

/** One way the upload endpoint answers, and whether that confirms the upload. */
interface UploadPath {
  name: string;
  title: string;
  answer: Behaviour;
  confirms: boolean;
  timeoutMs?: number;
  /** Also an observer with an upload endpoint of its own (the confirmed path). */
  observer?: boolean;
  /**
   * The event deliveries require the lane's bearer token, the upload (without `upload.auth`)
   * nothing: the upload must not carry the event credentials (needs features.tokenEnv).
   */
  eventAuth?: boolean;
}

const PATHS: readonly UploadPath[] = [
  {
    name: 'confirmed',
    title: 'raw-octets-exact-framing-each-event-carries-exactly-its-own-receipt-ref-after-the-receipt',
    answer: { kind: 'upload-receipt' },
    confirms: true,
    observer: true,
  },
  {
    name: 'refused',
    title: 'a-403-yields-no-reference',
    answer: { kind: 'http-status', status: 403, body: { text: 'not authorized for this scope\n' } },
    confirms: false,
  },
  {
    // The receiver's answer to missing or malformed framing or a length/hash mismatch.
    name: 'bad-request',
    title: 'a-400-yields-no-reference',
    answer: { kind: 'http-status', status: 400, body: { text: 'length or digest mismatch\n' } },
    confirms: false,
  },
  {
    // The receiver's answer to missing or invalid credentials, with a bearer challenge.
    name: 'unauthorized',
    title: 'a-401-yields-no-reference',
    answer: { kind: 'http-unauthorized' },
    confirms: false,
  },
  {
    name: 'wrong-hash',
    title: 'a-201-receipt-whose-sha256-is-not-the-bytes-yields-no-reference',
    answer: { kind: 'upload-receipt', sha256: sha256Hex(new TextEncoder().encode('other bytes')) },
    confirms: false,
  },
  {
    name: 'slow',
    title: 'a-receipt-after-the-upload-timeout-yields-no-reference',
    answer: { kind: 'delay', ms: SHORT_UPLOAD_MS * 10, then: { kind: 'upload-receipt' } },
    confirms: false,
    timeoutMs: SHORT_UPLOAD_MS,
  },
  {
    name: 'event-auth',
    title: 'without-upload-auth-the-upload-carries-no-event-credentials',
    answer: { kind: 'upload-receipt' },
    confirms: true,
    eventAuth: true,
  },
  {
    name: 'never',
    title: 'no-answer-yields-no-reference',
    answer: { kind: 'hang' },
    confirms: false,
    timeoutMs: SHORT_UPLOAD_MS,
  },
];

/**
 * The subscriptions of a path: a body interceptor (and, confirmed, a body observer), each
 * uploading. A receipt's ref is the endpoint's own, unique to the run, so a ref borrowed from
 * another subscription's receipt shows.
 */
function specsOf(path: UploadPath, nonce: string): ContentSubscriptionSpec[] {
  const spec = (label: string, mode: 'intercept' | 'observe'): ContentSubscriptionSpec => ({
    label,
    mode,
    content: { default: 'body' },
    viewsOf: () => ['body'],
    upload: true,
    uploadAnswer:
      path.answer.kind === 'upload-receipt'
        ? { ...path.answer, ref: `receipt-${label}-${nonce}` }
        : path.answer,
    ...(path.timeoutMs === undefined ? {} : { uploadTimeoutMs: path.timeoutMs }),
    ...(path.eventAuth ? { eventBearer: true } : {}),
  });
  const specs = [spec(`upload-${path.name}`, 'intercept')];
  if (path.observer) specs.push(spec(`upload-${path.name}-observer`, 'observe'));
  return specs;
}

/**
 * Octets no text conversion keeps: a PNG signature, bytes that are not UTF-8, CR LF, a NUL, and
 * random bytes unique to the run.
 */
function attachmentBytes(): Uint8Array {
  return new Uint8Array([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    0xff,
    0xfe,
    0x00,
    ...randomBytes(40),
  ]);
}

/** Every finding of one subscription's uploads and frames. */
function judge(
  type: string,
  spec: ContentSubscriptionSpec,
  path: UploadPath,
  received: Received,
  given: GivenAttachment,
  eventToken: string,
): Finding[] {
  const posts = received.uploads.get(spec.label) ?? [];
  const frames = received.frames.get(spec.label) ?? [];
  const backendId = received.backendIds.get(spec.label) ?? spec.label;
  const expected = { given, posts, confirms: path.confirms };
  const where = `$.params.event.${CONTENT_EVENTS[type]}`;
  const found: Finding[] = [
    ...uploadFramingProblems(posts, given),
    ...missingUploadProblem(posts, given),
    ...reportedUploadProblems(received.result.uploads, backendId, expected),
    ...(path.eventAuth ? eventCredentialProblems(posts, eventToken) : []),
  ];
  if (path.confirms && frames.length === 0) {
    found.push(finding('content.upload-receipt', `no ${type} frame, although its upload was confirmed`));
  }
  frames.forEach((frame, i) => {
    if (!isJsonObject(frame.event)) {
      found.push(finding('content.upload-receipt', `frame ${i + 1}: no params.event`));
      return;
    }
    const problems = [
      ...contentViolations(frame.event, ['AHP-CONTENT-002']),
      ...frameReferenceProblems(wireSlot(type, frame.event), where, frame.arrivedAtWallMs, expected),
    ];
    found.push(...prefixed(problems, `frame ${i + 1}: `));
  });
  return prefixed(found, `${spec.mode} subscription "${spec.label}": `);
}

/** Declares one upload case per way the endpoint answers. */
export function declareUploadCases(fixture: HarnessFixture): void {
  for (const path of PATHS) {
    driverCase(
      fixture,
      {
        name: `AHP-CONTENT-002/upload:${path.name}/${path.title}`,
        requirements: ['AHP-CONTENT-002'],
        transports: ['http'],
      },
      { transport: 'http', features: path.eventAuth ? ['uploads', 'tokenEnv'] : ['uploads'] },
      async (ctx, state) => {
        const type = selectionEventOrUntested(ctx, state);
        const bytes = attachmentBytes();
        const nonce = randomBytes(6).toString('hex');
        const messages = withAttachmentBytes(givenConversation(nonce, { structured: false }), bytes);
        const attachment = messages.flatMap((m) => m.parts).find((p) => p.kind === 'attachment');
        if (attachment === undefined) throw new Error('the given conversation holds no attachment');
        const given = { partId: attachment.id, size: bytes.length, sha256: sha256Hex(bytes) };
        ctx.evidence({ event: type, attachment: given });
        const specs = specsOf(path, nonce);
        const received = await raiseWithContent(ctx, state, type, specs, messages);
        const problems = specs.flatMap((spec) => judge(type, spec, path, received, given, state.token));
        if (problems.length > 0) throw new CaseFailure(problems);
      },
    );
  }
}
