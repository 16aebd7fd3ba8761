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
 * take the default; and nothing a view withholds is anywhere else in its frame. Opaque `native`
 * data (content-native.ts), handed in at each place the schemas give it (the event, its error),
 * goes only to subscriptions that set includeNative, and never with what their view withholds.
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
  NATIVE_PATHS,
  nativeCopy,
  nativeLeakProblems,
  placeNative,
  unaskedNativeProblems,
  withoutNative,
  type NativeSite,
} from './content-native.js';
import {
  CONTENT_EVENTS,
  contentFor,
  givenConversation,
  marker,
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
  /** Set `includeNative`: the subscription asks for opaque native data. */
  includeNative?: boolean;
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
      ...(spec.includeNative ? { includeNative: true } : {}),
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
 * Configures the subscriptions, raises one `type` event carrying `messages` (and whatever `extra`
 * adds to its payload), and returns the frames each subscription received for it (every backend
 * answers an intercept with no effect).
 */
async function raiseWithContent(
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

/** How the frames of a case are judged: the IDs its validation findings name, and its own rule. */
interface JudgeOptions {
  ids: readonly string[];
  /** The rule of a frame that is missing or carries no event. */
  caseRule: RuleKey;
  /**
   * Native data to a subscription that did not set includeNative is a finding (the native cases,
   * which hand some in). Elsewhere only native data that holds withheld content is.
   */
  unaskedNative?: boolean;
}

/**
 * Every finding of the frames each subscription received, against its view of `messages`; a frame
 * that is missing, or carries no event, is a finding of the case's own rule. Native data is judged
 * apart from the rest of the frame, so a native copy of a withheld text is reported once, as such.
 */
function judgeFrames(
  type: string,
  specs: readonly ContentSubscriptionSpec[],
  received: Received,
  messages: readonly GivenMessage[],
  nonce: string,
  options: JudgeOptions,
): Finding[] {
  const { ids, caseRule } = options;
  const slot = CONTENT_EVENTS[type];
  const parts = messages.flatMap((m) => m.parts);
  return specs.flatMap((spec) => {
    const frames = received.frames.get(spec.label) ?? [];
    const who = subscriptionName(spec);
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
    const withheld = new Map(
      parts.filter((p) => spec.viewOf(p) !== 'body').map((p) => [p.id, marker(nonce, p.id)]),
    );
    return uploaded.concat(
      frames.flatMap((frame, i) => {
        const at = `${who}, frame ${i + 1}`;
        if (!isJsonObject(frame.event)) return [finding(caseRule, `${at}: no params.event`)];
        const bare = frameWithoutNative(frame.text, frame.event);
        const wire = wireSlot(type, bare.event);
        const where = `$.params.event.${slot}`;
        const structure =
          slot === 'summary'
            ? partListProblems(summaryParts(messages), wire, spec.viewOf, where)
            : messageListProblems(messages, wire, spec.viewOf, where);
        const native =
          options.unaskedNative && !spec.includeNative
            ? unaskedNativeProblems(frame.event)
            : nativeLeakProblems(frame.event, withheld);
        const found = [
          ...contentViolations(frame.event, ids),
          ...structure,
          ...leakProblems(bare.text, nonce, parts, spec.viewOf),
          ...native,
          ...(spec.upload ? unconfirmedRefProblems(wire, where) : []),
        ];
        return prefixed(found, `${at}: `);
      }),
    );
  });
}

/** How a finding names a subscription. */
function subscriptionName(spec: ContentSubscriptionSpec): string {
  const native = spec.includeNative ? ', includeNative' : '';
  return `${spec.mode} subscription "${spec.label}" (content ${JSON.stringify(spec.content)}${native})`;
}

/** A frame's text and event with the native data at both schema sites taken out. */
function frameWithoutNative(text: string, event: JsonObject): { text: string; event: JsonObject } {
  const bare = withoutNative(event);
  const parsed = JSON.parse(text) as JsonObject;
  return {
    text: JSON.stringify({ ...parsed, params: { ...(parsed.params as JsonObject), event: bare } }),
    event: bare,
  };
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

/**
 * The native cases' subscriptions: without includeNative an interceptor and an observer that see
 * every text, so a native copy would withhold nothing from them and only the setting decides;
 * with it, views that withhold every part.
 */
const NATIVE_SPECS: readonly ContentSubscriptionSpec[] = [
  ALL_BODY,
  { label: 'body-observer', mode: 'observe', content: { default: 'body' }, viewOf: () => 'body' },
  {
    label: 'metadata-native',
    mode: 'intercept',
    content: { default: 'metadata' },
    viewOf: () => 'metadata',
    includeNative: true,
  },
  {
    label: 'omit-native-observer',
    mode: 'observe',
    content: { default: 'omit' },
    viewOf: () => 'omit',
    includeNative: true,
  },
];

/** The event a native case raises at `site`, of those the driver announced; undefined if none. */
function nativeEvent(site: NativeSite, announced: readonly string[]): string | undefined {
  // tool.after is the one interceptable event whose schema has an error object.
  return site === 'error'
    ? announced.find((e) => e === 'tool.after')
    : SELECTION_EVENTS.find((e) => announced.includes(e));
}

/** Declares the native-data cases: one per place the schemas give `native`. */
function declareNativeCases(fixture: HarnessFixture): void {
  for (const site of ['event', 'error'] as const) {
    driverCase(
      fixture,
      {
        name: `AHP-CONTENT-002/native:${site}/only-with-includeNative-never-what-the-view-withholds`,
        requirements: ['AHP-CONTENT-002'],
        transports: ['http'],
      },
      { transport: 'http' },
      async (ctx, state) => {
        const type = nativeEvent(site, announcedEvents(state.info));
        if (type === undefined) {
          return ctx.untested(
            site === 'error'
              ? 'the driver does not announce tool.after in features.events, the only interceptable event with an error object (and so an error.native)'
              : `the driver announces none of the events that carry a conversation in features.events (${SELECTION_EVENTS.join(', ')})`,
          );
        }
        const nonce = randomBytes(6).toString('hex');
        const messages = givenConversation(nonce, { structured: false });
        const native = nativeCopy(messages);
        ctx.evidence({ event: type, native: { at: NATIVE_PATHS[site], value: native } });
        const received = await raiseWithContent(ctx, state, type, NATIVE_SPECS, messages, (payload) =>
          placeNative(site, payload, native),
        );
        const problems = judgeFrames(type, NATIVE_SPECS, received, messages, nonce, {
          ids: ['AHP-CONTENT-002'],
          caseRule: 'content.selection',
          unaskedNative: true,
        });
        if (problems.length > 0) throw new CaseFailure(problems);
      },
    );
  }
}

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
        const problems = judgeFrames(type, FULL_CONTENT_SPECS, received, messages, nonce, {
          ids: ['AHP-CONTENT-001'],
          caseRule: 'content.canonical',
        });
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
        const problems = judgeFrames(type, specs, received, messages, nonce, {
          ids: ['AHP-CONTENT-002'],
          caseRule: 'content.selection',
        });
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
  declareNativeCases(fixture);
}
