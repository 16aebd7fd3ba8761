/**
 * Raising one event with content through subscriptions each on a backend (a mock) of its own,
 * over HTTP (kit/backend-set.ts), and reading back what each received: its frames, and the
 * uploads its upload endpoint received, with what the driver reported.
 */
import type { InterceptableEvent } from '../../../protocol/events.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../../protocol/json.js';
import type { Behaviour } from '../../../mock-backend/index.js';
import type { InvokeParams, InvokeResult } from '../../../protocol/driver-protocol/index.js';
import type { CaseContext } from '../../common/case.js';
import { CaseFailure } from '../../common/finding.js';
import { announcedEvents } from '../../driver/index.js';
import { startBackendSet, type BackendSet, type SetBackend } from '../kit/backend-set.js';
import { configureHarness } from '../kit/lane-driver.js';
import { samplePayload } from '../kit/event-payloads.js';
import { refusedValidRegistration } from '../kit/run-case.js';
import type { FixtureState } from '../kit/fixture.js';
import { stepIds } from '../kit/run-step.js';
import { CaseSteps, issuedBySuite } from '../kit/step-identity.js';
import type { UploadPost } from '../kit/upload-records.js';
import { utf8Text } from '../kit/wire-records.js';
import type { ViewsOf } from './content-checks.js';
import { placeContent, type GivenMessage, type GivenPart } from './content-samples.js';

/** One subscription of a content case, on a backend of its own. */
export interface ContentSubscriptionSpec {
  label: string;
  mode: 'intercept' | 'observe';
  content: JsonObject;
  /** The views this subscription may give each part: one where the draft decides (ViewsOf). */
  viewsOf: ViewsOf;
  /**
   * Configure `upload` with an endpoint (a mock of the backend's); it answers each well-framed
   * upload as `uploadAnswer` scripts (default: a receipt under 200, which confirms nothing).
   */
  upload?: boolean;
  uploadAnswer?: Behaviour;
  /** The upload's `timeoutMs` (default UPLOAD_LIMITS'). */
  uploadTimeoutMs?: number;
  /** The backend's event deliveries require the lane's bearer token (bearer authentication). */
  eventBearer?: boolean;
  /**
   * The subscription's `includeNative`, written as given (true: it asks for opaque native data;
   * false, or absent: it does not, the default).
   */
  includeNative?: boolean;
}

/** One frame a subscription received for the call: its text and its event. */
export interface ReceivedFrame {
  text: string;
  event: JsonValue;
  arrivedAtWallMs: number;
}

/** What the mock received for one call: each subscription's frames, and each upload POST by label. */
export interface Received {
  frames: Map<string, ReceivedFrame[]>;
  uploads: Map<string, UploadPost[]>;
  /** The backend id of each subscription, by label. */
  backendIds: Map<string, string>;
  /** What the driver answered to the invoke. */
  result: InvokeResult;
}

/** Bounds of a configured upload: the mock answers at once unless scripted to be slow. */
export const UPLOAD_LIMITS = { timeoutMs: 2000, maxBytes: 1_000_000 };

/** The backends: one per subscription, every intercept answered with no effect. */
function contentBackends(
  type: string,
  specs: readonly ContentSubscriptionSpec[],
  timeoutMs: number,
  token: string,
): SetBackend[] {
  return specs.map((spec) => {
    const options = {
      events: [type],
      content: spec.content,
      ...(spec.upload
        ? { upload: { ...UPLOAD_LIMITS, timeoutMs: spec.uploadTimeoutMs ?? UPLOAD_LIMITS.timeoutMs } }
        : {}),
      ...(spec.includeNative === undefined ? {} : { includeNative: spec.includeNative }),
    };
    return {
      id: `dev.ahp-conformance.content-${spec.label}`,
      subscriptions: [
        spec.mode === 'intercept'
          ? { mode: 'intercept', policy: 'fail-open', timeoutMs, ...options }
          : { mode: 'observe', ...options },
      ],
      replies: [],
      ...(spec.uploadAnswer === undefined ? {} : { uploadAnswer: spec.uploadAnswer }),
      ...(spec.eventBearer ? { bearer: token } : {}),
    };
  });
}

/**
 * Registers `set`'s subscriptions with the harness, then raises `event` through the driver as the
 * set's first step, with both as evidence. A harness that refuses the valid registration fails
 * the case. The case configures the harness itself: the next data case must not take that
 * configuration for its own.
 */
export async function configureAndInvoke(
  ctx: CaseContext,
  state: FixtureState,
  set: BackendSet,
  steps: CaseSteps,
  event: InvokeParams['event'],
): Promise<InvokeResult> {
  state.configured = undefined;
  const registration = set.registration();
  const configured = await configureHarness(state, { registration }, ctx);
  ctx.evidence({ registration, configure: configured as unknown as JsonValue });
  if (!configured.accepted) throw new CaseFailure([refusedValidRegistration(configured.issues)]);
  set.begin(0);
  const result = await state.client.invoke({ event });
  steps.addId(0, result.eventId);
  ctx.evidence({ invoke: { event, result: result as unknown as JsonValue } });
  return result;
}

/**
 * The first of the events that carry a whole conversation the driver announced; a driver that
 * announces none leaves the case untested, saying so.
 */
export function selectionEventOrUntested(ctx: CaseContext, state: FixtureState): string {
  const announced = announcedEvents(state.info);
  const type = SELECTION_EVENTS.find((e) => announced.includes(e));
  if (type !== undefined) return type;
  return ctx.untested(
    `the driver announces none of the events that carry a conversation in features.events (${SELECTION_EVENTS.join(', ')})`,
  );
}

/**
 * Configures the subscriptions, raises one `type` event carrying `messages` (and whatever `extra`
 * adds to its payload), and returns the frames each subscription received for it (every backend
 * answers an intercept with no effect).
 */
export async function raiseWithContent(
  ctx: CaseContext,
  state: FixtureState,
  type: string,
  specs: readonly ContentSubscriptionSpec[],
  messages: readonly GivenMessage[],
  extra: (payload: JsonObject) => void = () => undefined,
): Promise<Received> {
  const n = ++state.counter;
  const payload = samplePayload(type as InterceptableEvent);
  if (isJsonObject(payload.call)) payload.call = { id: `call-${state.prefix}-${n}` };
  placeContent(type, payload, messages);
  extra(payload);
  const event = { type, id: `evt-${state.prefix}-${n}`, session: { id: `sess-${state.prefix}` }, ...payload };
  const steps = new CaseSteps([stepIds(event)], issuedBySuite(state.prefix));
  const set = await startBackendSet(
    'http',
    contentBackends(type, specs, state.margins.answerDeadlineMs, state.token),
    steps,
  );
  try {
    const result = await configureAndInvoke(ctx, state, set, steps, event);
    const methodOf = (spec: ContentSubscriptionSpec) =>
      spec.mode === 'intercept' ? 'hooks/intercept' : 'hooks/observe';
    await Promise.all(
      specs.map((spec, i) => set.waitFor(i, 0, methodOf(spec), 1, state.margins.deliveryWaitMs)),
    );
    const received = new Map<string, ReceivedFrame[]>();
    const uploads = new Map<string, UploadPost[]>();
    specs.forEach((spec, i) => {
      const call = set.callAt(i, 0);
      const frames = spec.mode === 'intercept' ? call.requests : call.notifications;
      uploads.set(spec.label, set.uploads(i));
      received.set(
        spec.label,
        frames.map(({ frame, arrivedAtWallMs }) => {
          const text = utf8Text(frame.bytes);
          let parsed: JsonValue = null;
          try {
            parsed = JSON.parse(text) as JsonValue;
          } catch {
            // judged below as a frame without an event
          }
          const params = isJsonObject(parsed) && isJsonObject(parsed.params) ? parsed.params : {};
          return { text, event: params.event ?? null, arrivedAtWallMs };
        }),
      );
    });
    ctx.evidence({
      uploads: Object.fromEntries([...uploads].map(([label, posts]) => [label, posts.map(uploadEvidence)])),
    });
    const backendIds = new Map(specs.map((spec, i) => [spec.label, set.ids[i] as string]));
    return { frames: received, uploads, backendIds, result };
  } finally {
    await set.close();
  }
}

/** An upload as evidence: what was sent and answered, the body by size and digest. */
function uploadEvidence(post: UploadPost): JsonValue {
  return {
    method: post.method,
    path: post.path,
    headers: post.headers,
    size: post.size,
    sha256: post.sha256,
    framing: post.framing,
    ...(post.status === undefined ? {} : { status: post.status }),
    ...(post.receipt === undefined ? {} : { receipt: post.receipt }),
  };
}

/** `messages` with every attachment handed in as the given bytes instead of a host reference. */
export function withAttachmentBytes(messages: readonly GivenMessage[], bytes: Uint8Array): GivenMessage[] {
  return messages.map((m) => ({
    ...m,
    parts: m.parts.map((p): GivenPart => {
      if (p.kind !== 'attachment') return p;
      const { ref: _ref, ...rest } = p;
      return { ...rest, bytes };
    }),
  }));
}

/** Events the selection cases may raise, best first: each carries a whole conversation in `items`. */
export const SELECTION_EVENTS = [
  'turn.start',
  'model.request.before',
  'model.response.after',
  'context.compact.before',
  'turn.finish.before',
  'tool.after',
  'session.start',
];
