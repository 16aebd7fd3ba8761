/**
 * Model-visible content on the wire (driver protocol v1.1: `invoke` raises an announced event with
 * content the suite hands in).
 * AHP-CONTENT-001 (content-upload.md#AHP-CONTENT-001), one case per event type that carries
 * content: a body interceptor and a body observer each receive canonical roles, the messages and
 * parts in the order given, every text inline and unchanged (structured data too: it stays the
 * text it was serialized into, a text/plain part, never a JSON part), and the validator finds no
 * content violation.
 * AHP-CONTENT-002 (content-upload.md#AHP-CONTENT-002): subscriptions with different `content`
 * selections each get their own view of one event: `body` keeps inline text; `metadata` and
 * `omit` views say which view they are and carry neither text nor body; per-category values
 * override the default, an explicit category overrides the media-derived one, unknown categories
 * take the default; and nothing a view withholds is anywhere else in its frame.
 * Content encoding does not depend on the transport: every case runs over HTTP, each subscription
 * on a backend (a mock) of its own (kit/backend-set.ts). Uploads: with an upload endpoint
 * configured (a mock of the backend's, which never confirms an upload), text stays inline and is never
 * uploaded, metadata selection uploads nothing, and no attachment gets a reference no receipt
 * confirmed. A confirmed upload (framing, receipt, the returned ref in the event) is not checked.
 */
import { randomBytes } from 'node:crypto';
import type { InterceptableEvent } from '../../../protocol/events.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../../protocol/json.js';
import type { CaseContext } from '../../common/case.js';
import { CaseFailure, type Finding } from '../../common/finding.js';
import { announcedEvents } from '../../driver/index.js';
import { startBackendSet, type SetBackend } from '../kit/backend-set.js';
import { driverCase } from '../kit/define.js';
import { configureHarness } from '../kit/lane-driver.js';
import { samplePayload } from '../kit/event-payloads.js';
import { refusedValidRegistration } from '../kit/run-case.js';
import { finding, prefixed, type RuleKey } from '../kit/rules.js';
import type { FixtureState, HarnessFixture } from '../kit/fixture.js';
import { stepIds } from '../kit/run-step.js';
import { CaseSteps, issuedBySuite } from '../kit/step-identity.js';
import { utf8Text } from '../kit/wire-records.js';
import {
  contentViolations,
  leakProblems,
  messageListProblems,
  partListProblems,
  unconfirmedRefProblems,
  uploadProblems,
  type View,
} from './content-checks.js';
import {
  CONTENT_EVENTS,
  contentFor,
  givenConversation,
  placeContent,
  summaryParts,
  wireSlot,
  type GivenMessage,
  type GivenPart,
} from './content-samples.js';

/** One subscription of a content case, on a backend of its own. */
interface ContentSubscriptionSpec {
  label: string;
  mode: 'intercept' | 'observe';
  content: JsonObject;
  /** The view this subscription must give each part. */
  viewOf(part: GivenPart): View;
  /** Configure `upload` with an endpoint (a mock of the backend's), which never confirms one. */
  upload?: boolean;
}

/** One frame a subscription received for the call: its text and its event. */
interface ReceivedFrame {
  text: string;
  event: JsonValue;
}

/** What the mock received for one call: each subscription's frames, and each upload POST by label. */
interface Received {
  frames: Map<string, ReceivedFrame[]>;
  uploads: Map<string, string[]>;
}

/** Bounds of a configured upload: short, since the mock answers at once and never confirms. */
const UPLOAD_LIMITS = { timeoutMs: 2000, maxBytes: 1_000_000 };

/** The backends: one per subscription, every intercept answered with no effect. */
function contentBackends(
  type: string,
  specs: readonly ContentSubscriptionSpec[],
  timeoutMs: number,
): SetBackend[] {
  return specs.map((spec) => {
    const options = {
      events: [type],
      content: spec.content,
      ...(spec.upload ? { upload: UPLOAD_LIMITS } : {}),
    };
    return {
      id: `dev.ahp-conformance.content-${spec.label}`,
      subscriptions: [
        spec.mode === 'intercept'
          ? { mode: 'intercept', policy: 'fail-open', timeoutMs, ...options }
          : { mode: 'observe', ...options },
      ],
      replies: [],
    };
  });
}

/**
 * Configures the subscriptions, raises one `type` event carrying `messages`, and returns the
 * frames each subscription received for it (every backend answers an intercept with no effect).
 */
async function raiseWithContent(
  ctx: CaseContext,
  state: FixtureState,
  type: string,
  specs: readonly ContentSubscriptionSpec[],
  messages: readonly GivenMessage[],
): Promise<Received> {
  const n = ++state.counter;
  const payload = samplePayload(type as InterceptableEvent);
  if (isJsonObject(payload.call)) payload.call = { id: `call-${state.prefix}-${n}` };
  placeContent(type, payload, messages);
  const event = { type, id: `evt-${state.prefix}-${n}`, session: { id: `sess-${state.prefix}` }, ...payload };
  const steps = new CaseSteps([stepIds(event)], issuedBySuite(state.prefix));
  const set = await startBackendSet(
    'http',
    contentBackends(type, specs, state.margins.answerDeadlineMs),
    steps,
  );
  // This case configures the harness itself: the next data case must not take it for its own.
  state.configured = undefined;
  try {
    const registration = set.registration();
    const configured = await configureHarness(state, { registration }, ctx);
    ctx.evidence({ registration, configure: configured as unknown as JsonValue });
    if (!configured.accepted) throw new CaseFailure([refusedValidRegistration(configured.issues)]);
    set.begin(0);
    const result = await state.client.invoke({ event });
    steps.addId(0, result.eventId);
    ctx.evidence({ invoke: { event, result: result as unknown as JsonValue } });
    const methodOf = (spec: ContentSubscriptionSpec) =>
      spec.mode === 'intercept' ? 'hooks/intercept' : 'hooks/observe';
    await Promise.all(
      specs.map((spec, i) => set.waitFor(i, 0, methodOf(spec), 1, state.margins.deliveryWaitMs)),
    );
    const received = new Map<string, ReceivedFrame[]>();
    const uploads = new Map<string, string[]>();
    specs.forEach((spec, i) => {
      const call = set.callAt(i, 0);
      const frames = spec.mode === 'intercept' ? call.requests : call.notifications;
      uploads.set(spec.label, set.uploads(i));
      received.set(
        spec.label,
        frames.map(({ frame }) => {
          const text = utf8Text(frame.bytes);
          let parsed: JsonValue = null;
          try {
            parsed = JSON.parse(text) as JsonValue;
          } catch {
            // judged below as a frame without an event
          }
          const params = isJsonObject(parsed) && isJsonObject(parsed.params) ? parsed.params : {};
          return { text, event: params.event ?? null };
        }),
      );
    });
    ctx.evidence({ uploads: Object.fromEntries(uploads) });
    return { frames: received, uploads };
  } finally {
    await set.close();
  }
}

/**
 * Every finding of the frames each subscription received, against its view of `messages`; a frame
 * that is missing, or carries no event, is a finding of the case's own rule (`caseRule`).
 */
function judgeFrames(
  type: string,
  specs: readonly ContentSubscriptionSpec[],
  received: Received,
  messages: readonly GivenMessage[],
  nonce: string,
  ids: readonly string[],
  caseRule: RuleKey,
): Finding[] {
  const slot = CONTENT_EVENTS[type];
  const parts = messages.flatMap((m) => m.parts);
  return specs.flatMap((spec) => {
    const frames = received.frames.get(spec.label) ?? [];
    const who = `${spec.mode} subscription "${spec.label}" (content ${JSON.stringify(spec.content)})`;
    const uploaded = spec.upload
      ? prefixed(
          uploadProblems(received.uploads.get(spec.label) ?? [], nonce, parts, spec.viewOf),
          `${who}: `,
        )
      : [];
    // A failed upload may suppress the delivery (content-upload.md, upload before publication).
    if (frames.length === 0) {
      return spec.upload ? uploaded : [finding(caseRule, `the ${who} received no ${type} frame`)];
    }
    return uploaded.concat(
      frames.flatMap((frame, i) => {
        const at = `${who}, frame ${i + 1}`;
        if (!isJsonObject(frame.event)) return [finding(caseRule, `${at}: no params.event`)];
        const wire = wireSlot(type, frame.event);
        const where = `$.params.event.${slot}`;
        const structure =
          slot === 'summary'
            ? partListProblems(summaryParts(messages), wire, spec.viewOf, where)
            : messageListProblems(messages, wire, spec.viewOf, where);
        const found = [
          ...contentViolations(frame.event, ids),
          ...structure,
          ...leakProblems(frame.text, nonce, parts, spec.viewOf),
          ...(spec.upload ? unconfirmedRefProblems(wire, where) : []),
        ];
        return prefixed(found, `${at}: `);
      }),
    );
  });
}

const ALL_BODY: ContentSubscriptionSpec = {
  label: 'body',
  mode: 'intercept',
  content: { default: 'body' },
  viewOf: () => 'body',
};

/** AHP-CONTENT-001's subscriptions: content in full, to an interceptor and to an observer. */
const FULL_CONTENT_SPECS: readonly ContentSubscriptionSpec[] = [
  ALL_BODY,
  { label: 'body-observer', mode: 'observe', content: { default: 'body' }, viewOf: () => 'body' },
];

/** Events the selection cases may raise, best first: each carries a whole conversation in `items`. */
const SELECTION_EVENTS = [
  'turn.start',
  'model.request.before',
  'model.response.after',
  'context.compact.before',
  'turn.finish.before',
  'tool.after',
  'session.start',
];

/** The views of one event through three subscriptions: body, metadata (intercept), omit (observe). */
const VIEW_SPECS: readonly ContentSubscriptionSpec[] = [
  ALL_BODY,
  { label: 'metadata', mode: 'intercept', content: { default: 'metadata' }, viewOf: () => 'metadata' },
  { label: 'omit', mode: 'observe', content: { default: 'omit' }, viewOf: () => 'omit' },
];

/**
 * Per-category selection: text and images by their own keys, the reasoning part by its explicit
 * category (over its text media), an unknown category by the default.
 */
const CATEGORY_SPEC: ContentSubscriptionSpec = {
  label: 'per-category',
  mode: 'intercept',
  content: { default: 'omit', text: 'body', reasoning: 'metadata', images: 'metadata' },
  viewOf(part) {
    if (part.category === 'reasoning') return 'metadata';
    if (part.category !== undefined) return 'omit';
    return part.kind === 'text' ? 'body' : 'metadata';
  },
};

/**
 * Subscriptions with an upload endpoint on the mock, which answers every upload without the 201
 * receipt that confirms one: the body subscription's text stays inline and its image gets no
 * ready reference; the metadata subscription causes no upload.
 */
const UPLOAD_SPECS: readonly ContentSubscriptionSpec[] = [
  {
    label: 'upload-body',
    mode: 'intercept',
    content: { default: 'body' },
    viewOf: () => 'body',
    upload: true,
  },
  {
    label: 'upload-metadata',
    mode: 'intercept',
    content: { default: 'metadata' },
    viewOf: () => 'metadata',
    upload: true,
  },
];

/** Declares the content cases on `fixture`. */
export function declareContentCases(fixture: HarnessFixture): void {
  for (const type of Object.keys(CONTENT_EVENTS)) {
    driverCase(
      fixture,
      {
        name: `AHP-CONTENT-001/event:${type}/canonical-roles-ordered-parts-inline-text-structured-as-text`,
        requirements: ['AHP-CONTENT-001'],
        transports: ['http'],
      },
      { transport: 'http', event: type },
      async (ctx, state) => {
        const nonce = randomBytes(6).toString('hex');
        const messages = contentFor(type, givenConversation(nonce, { structured: true }));
        const received = await raiseWithContent(ctx, state, type, FULL_CONTENT_SPECS, messages);
        const problems = judgeFrames(
          type,
          FULL_CONTENT_SPECS,
          received,
          messages,
          nonce,
          ['AHP-CONTENT-001'],
          'content.canonical',
        );
        if (problems.length > 0) throw new CaseFailure(problems);
      },
    );
  }
  const selectionCase = (name: string, specs: readonly ContentSubscriptionSpec[]) =>
    driverCase(
      fixture,
      { name, requirements: ['AHP-CONTENT-002'], transports: ['http'] },
      { transport: 'http' },
      async (ctx, state) => {
        const announced = announcedEvents(state.info);
        const type = SELECTION_EVENTS.find((e) => announced.includes(e));
        if (type === undefined) {
          return ctx.untested(
            `the driver announces none of the events that carry a conversation in features.events (${SELECTION_EVENTS.join(', ')})`,
          );
        }
        ctx.evidence({ event: type });
        const nonce = randomBytes(6).toString('hex');
        // Plain text only: structured text is AHP-CONTENT-001's.
        const messages = givenConversation(nonce, { structured: false });
        const received = await raiseWithContent(ctx, state, type, specs, messages);
        const problems = judgeFrames(
          type,
          specs,
          received,
          messages,
          nonce,
          ['AHP-CONTENT-002'],
          'content.selection',
        );
        if (problems.length > 0) throw new CaseFailure(problems);
      },
    );
  selectionCase(
    'AHP-CONTENT-002/selection:body-metadata-omit/each-subscription-its-own-view-nothing-withheld-elsewhere',
    VIEW_SPECS,
  );
  selectionCase(
    'AHP-CONTENT-002/selection:per-category/category-keys-over-default-explicit-category-over-media',
    [CATEGORY_SPEC],
  );
  selectionCase(
    'AHP-CONTENT-002/upload:unconfirmed/text-never-uploaded-no-upload-for-metadata-no-unconfirmed-reference',
    UPLOAD_SPECS,
  );
}
