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
 * override the default, an explicit category overrides the media-derived one (image/* images,
 * audio/* audio, video/* video, any other attachment files), unknown categories take the
 * default; and nothing a view withholds is anywhere else in its frame. Opaque `native` data
 * (content-native.ts), handed in at each place the schemas give it (the event, its error), goes
 * only to subscriptions that set includeNative, and never with what their view withholds.
 * Content encoding does not depend on the transport: every case runs over HTTP, each subscription
 * on a backend (a mock) of its own (kit/backend-set.ts). Uploads: with an upload endpoint
 * configured (a mock of the backend's, which never confirms an upload), text stays inline and is never
 * uploaded, metadata selection uploads nothing, and no attachment gets a reference no receipt
 * confirmed. The upload path itself (framing, receipts, the returned ref in the event, each
 * failure) is content-upload-cases.ts'.
 */
import { randomBytes } from 'node:crypto';
import { isJsonObject, type JsonObject } from '../../../protocol/json.js';
import { CaseFailure, type Finding } from '../../common/finding.js';
import { announcedEvents } from '../../driver/index.js';
import { driverCase } from '../kit/define.js';
import { finding, prefixed, type RuleKey } from '../kit/rules.js';
import type { CaseContext } from '../../common/case.js';
import type { FixtureState, HarnessFixture } from '../kit/fixture.js';
import {
  raiseWithContent,
  selectionEventOrUntested,
  withAttachmentBytes,
  type ContentSubscriptionSpec,
  type Received,
} from './content-raise.js';
import { declareUploadCases } from './content-upload-cases.js';
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
  summaryParts,
  wireSlot,
  type GivenMessage,
  type GivenPart,
} from './content-samples.js';

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
          uploadProblems(
            (received.uploads.get(spec.label) ?? []).map((post) => Buffer.from(post.body).toString('utf8')),
            nonce,
            parts,
            spec.viewOf,
          ),
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

/** The views of one event through three subscriptions: body, metadata (intercept), omit (observe). */
const VIEW_SPECS: readonly ContentSubscriptionSpec[] = [
  ALL_BODY,
  { label: 'metadata', mode: 'intercept', content: { default: 'metadata' }, viewOf: () => 'metadata' },
  { label: 'omit', mode: 'observe', content: { default: 'omit' }, viewOf: () => 'omit' },
];

/** The category the draft selects a given part by: its explicit one, else text or its media's. */
function categoryOf(part: GivenPart): string {
  if (part.category !== undefined) return part.category;
  if (part.kind === 'text') return 'text';
  return part.mediaCategory ?? 'files';
}

/** A subscription that selects by category, each part's view read off its `content`. */
function categorySpec(
  label: string,
  mode: ContentSubscriptionSpec['mode'],
  content: Record<string, View>,
): ContentSubscriptionSpec {
  return {
    label,
    mode,
    content,
    viewOf: (part) => {
      const category = categoryOf(part);
      return category !== 'default' && Object.hasOwn(content, category)
        ? (content[category] as View)
        : (content.default as View);
    },
  };
}

/**
 * Per-category selection, over a conversation with an image, an audio, a video and a PDF
 * attachment, none with a category of its own. The first subscription selects text, images,
 * audio and video by their own keys, the reasoning part by its explicit category (over its text
 * media), the notes part's unknown category and the PDF (files, not listed) by the default; its
 * audio, video and files views differ pairwise, so an attachment filed under another of the
 * three shows. The second lists files with a view its default does not have, so a PDF filed
 * under no category (or one it does not list) shows too.
 */
export const CATEGORY_SPECS: readonly ContentSubscriptionSpec[] = [
  categorySpec('per-category', 'intercept', {
    default: 'omit',
    text: 'body',
    reasoning: 'metadata',
    images: 'metadata',
    audio: 'body',
    video: 'metadata',
  }),
  categorySpec('per-media', 'observe', { default: 'metadata', audio: 'omit', video: 'omit', files: 'body' }),
];

/**
 * Subscriptions with an upload endpoint on the mock, which answers every upload with a receipt
 * under 200, not the 201 that confirms one: the body subscription's text stays inline and its
 * image (bytes to upload, when the driver announces features.uploads) gets no ready reference;
 * the metadata subscription causes no upload.
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

/**
 * The event a native case raises at `site`: a conversation event for the event's own native;
 * tool.after, the one interceptable event whose schema has an error object, for the error's.
 */
function nativeEventOrUntested(ctx: CaseContext, state: FixtureState, site: NativeSite): string {
  if (site === 'event') return selectionEventOrUntested(ctx, state);
  if (announcedEvents(state.info).includes('tool.after')) return 'tool.after';
  return ctx.untested(
    'the driver does not announce tool.after in features.events, the only interceptable event with an error object (and so an error.native)',
  );
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
        const type = nativeEventOrUntested(ctx, state, site);
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
  const selectionCase = (
    name: string,
    specs: readonly ContentSubscriptionSpec[],
    options: { bytes?: boolean; media?: boolean } = {},
  ) =>
    driverCase(
      fixture,
      { name, requirements: ['AHP-CONTENT-002'], transports: ['http'] },
      { transport: 'http' },
      async (ctx, state) => {
        const type = selectionEventOrUntested(ctx, state);
        ctx.evidence({ event: type });
        const nonce = randomBytes(6).toString('hex');
        // Plain text only: structured text is AHP-CONTENT-001's.
        const conversation = givenConversation(nonce, { structured: false, media: options.media === true });
        // With features.uploads (driver protocol v1.2) the attachment comes as bytes to upload.
        const messages =
          options.bytes === true && state.info.features.uploads === true
            ? withAttachmentBytes(conversation, randomBytes(32))
            : conversation;
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
    CATEGORY_SPECS,
    { media: true },
  );
  selectionCase(
    'AHP-CONTENT-002/upload:unconfirmed/text-never-uploaded-no-upload-for-metadata-no-unconfirmed-reference',
    UPLOAD_SPECS,
    { bytes: true },
  );
  declareNativeCases(fixture);
  declareUploadCases(fixture);
}
