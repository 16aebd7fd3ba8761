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
 * audio/* audio, video/* video; an attachment of another media type, which the draft files
 * nowhere, may take files or the default), unknown categories take the default; and nothing a
 * view withholds is anywhere else in its frame. Opaque `native` data
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
import { isJsonObject, type JsonObject, type JsonValue } from '../../../protocol/json.js';
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
  gapPartIds,
  leakProblems,
  messageListProblems,
  partListProblems,
  unconfirmedRefProblems,
  uploadProblems,
  viewsInFrame,
  type View,
} from './content-checks.js';
import {
  NATIVE_PATHS,
  nativeCopy,
  nativeLeakProblems,
  nativeProblems,
  placeNative,
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

/** How the frames of a case are judged: the IDs its validation findings name, and its own rule. */
interface JudgeOptions {
  ids: readonly string[];
  /** The rule of a frame that is missing or carries no event. */
  caseRule: RuleKey;
  /**
   * The native cases, which hand native data in: native data to a subscription that did not set
   * includeNative is a finding, and the event's `error` must be `error` as handed in (undefined:
   * none was), native apart. Elsewhere only native data that holds withheld content is a finding.
   */
  native?: { error: JsonValue | undefined };
  /** The `items` slot holds the parts of `messages` as bare parts, in order. */
  bareParts?: boolean;
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
            spec.viewsOf,
          ),
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
        const bare = frameWithoutNative(frame.text, frame.event);
        const wire = slot === undefined ? undefined : wireSlot(type, bare.event);
        const where = `$.params.event.${slot}`;
        // Where the draft allows a part more than one view, the frame is judged in the one it gave.
        const viewOf = viewsInFrame(spec.viewsOf, wire);
        const withheld = new Map(
          parts.filter((p) => viewOf(p) !== 'body').map((p) => [p.id, marker(nonce, p.id)]),
        );
        const structure =
          slot === undefined
            ? []
            : slot === 'summary' || options.bareParts
              ? partListProblems(
                  slot === 'summary' ? summaryParts(messages) : messages.flatMap((m) => m.parts),
                  wire,
                  spec.viewsOf,
                  where,
                )
              : messageListProblems(messages, wire, spec.viewsOf, where);
        // A part the view could only give as a gap is withheld too (native data may not carry it).
        const withheldHere = new Map([
          ...withheld,
          ...gapPartIds(wire).map((id): [string, string] => [id, marker(nonce, id)]),
        ]);
        const native = options.native
          ? nativeProblems(frame.event, spec.includeNative === true, withheldHere, options.native.error)
          : nativeLeakProblems(frame.event, withheldHere);
        const found = [
          ...contentViolations(frame.event, ids),
          ...structure,
          ...leakProblems(bare.text, nonce, parts, viewOf),
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
  viewsOf: () => ['body'],
};

/** AHP-CONTENT-001's subscriptions: content in full, to an interceptor and to an observer. */
const FULL_CONTENT_SPECS: readonly ContentSubscriptionSpec[] = [
  ALL_BODY,
  { label: 'body-observer', mode: 'observe', content: { default: 'body' }, viewsOf: () => ['body'] },
];

/** The views of one event through three subscriptions: body, metadata (intercept), omit (observe). */
const VIEW_SPECS: readonly ContentSubscriptionSpec[] = [
  ALL_BODY,
  { label: 'metadata', mode: 'intercept', content: { default: 'metadata' }, viewsOf: () => ['metadata'] },
  { label: 'omit', mode: 'observe', content: { default: 'omit' }, viewsOf: () => ['omit'] },
];

/**
 * The categories the draft lets a harness select a given part by (content-upload.md, "Canonical
 * messages and content selection": a part's own category wins over the one its media type gives;
 * content-selection.schema.json: apart from reasoning, parts are classified by media type): its
 * explicit one; else text for a text part, or the category its media type names (images, audio,
 * video). The draft maps no media type to `files`: an attachment of any other media type may be
 * filed there or under no category (undefined: the default) alike.
 */
function categoriesOf(part: GivenPart): readonly (string | undefined)[] {
  if (part.category !== undefined) return [part.category];
  if (part.kind === 'text') return ['text'];
  return part.mediaCategory === undefined ? ['files', undefined] : [part.mediaCategory];
}

/**
 * A subscription that selects by category, each part's views read off its `content`: unknown
 * categories (and a part filed under none) take the default.
 */
function categorySpec(
  label: string,
  mode: ContentSubscriptionSpec['mode'],
  content: Record<string, View>,
): ContentSubscriptionSpec {
  const viewFor = (category: string | undefined): View =>
    category !== undefined && category !== 'default' && Object.hasOwn(content, category)
      ? (content[category] as View)
      : (content.default as View);
  return {
    label,
    mode,
    content,
    viewsOf: (part) => [...new Set(categoriesOf(part).map(viewFor))],
  };
}

/**
 * The content slots beyond the conversation in `items` the selection cases raise (each names
 * the event it is raised on): a summary list of parts (context.compact.after), a message's
 * `messages` (user.message.inbound), and `items` holding bare parts, as tool output does
 * (tool.after). Each conversation also holds a text the host has only the descriptor of, which
 * a body view must give as selection body with a gap (content-upload.md: a missing requested
 * body uses selection body and gap).
 */
const SLOT_CASES: readonly { name: string; event: string; bareParts?: true }[] = [
  { name: 'summary', event: 'context.compact.after' },
  { name: 'message.messages', event: 'user.message.inbound' },
  { name: 'items-bare-parts', event: 'tool.after', bareParts: true },
];

/**
 * Per-category selection, over a conversation with an image, an audio, a video and a PDF
 * attachment, none with a category of its own, and an image with the explicit category `files`.
 * The first subscription selects text, images, audio and video by their own keys, the reasoning
 * part by its explicit category (over its text media), the notes part's unknown category, the
 * PDF and the image filed under files (not listed) by the default; its audio, video and default
 * views differ pairwise, so an attachment filed under another of the three shows. The second
 * lists files with a view its default does not have: the image filed under files must get it
 * (the explicit category decides), the PDF may get it or the default (the draft names no
 * category for its media type), and nothing else may.
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
    viewsOf: () => ['body'],
    upload: true,
  },
  {
    label: 'upload-metadata',
    mode: 'intercept',
    content: { default: 'metadata' },
    viewsOf: () => ['metadata'],
    upload: true,
  },
];

/**
 * The native cases' subscriptions: includeNative absent (the default) and false, each with a
 * view that withholds nothing of the text, so only the setting decides; and includeNative true
 * with a body view (withholding only what it can give as a gap, an attachment nothing was
 * uploaded for), a metadata and an omit view (withholding every part).
 */
const NATIVE_SPECS: readonly ContentSubscriptionSpec[] = [
  ALL_BODY,
  {
    label: 'body-observer',
    mode: 'observe',
    content: { default: 'body' },
    viewsOf: () => ['body'],
    includeNative: false,
  },
  {
    label: 'body-native',
    mode: 'intercept',
    content: { default: 'body' },
    viewsOf: () => ['body'],
    includeNative: true,
  },
  {
    label: 'metadata-native',
    mode: 'intercept',
    content: { default: 'metadata' },
    viewsOf: () => ['metadata'],
    includeNative: true,
  },
  {
    label: 'omit-native-observer',
    mode: 'observe',
    content: { default: 'omit' },
    viewsOf: () => ['omit'],
    includeNative: true,
  },
];

/**
 * Interceptable events that carry no content slot (no items, summary or message), best first:
 * native data on one is all a view has to project.
 */
const NO_CONTENT_EVENTS = ['model.switch.before', 'config.change.before', 'task.change.before'];

/** Where a native case puts the native value, and on what kind of event. */
type NativeVariant = NativeSite | 'event-without-content';

/**
 * The event a native case raises: a conversation event for the event's own native; tool.after,
 * the one interceptable event whose schema has an error object, for the error's; an event
 * without any content slot for the event's own native where nothing else is to be projected.
 */
function nativeEventOrUntested(ctx: CaseContext, state: FixtureState, variant: NativeVariant): string {
  if (variant === 'event') return selectionEventOrUntested(ctx, state);
  const announced = announcedEvents(state.info);
  if (variant === 'error') {
    if (announced.includes('tool.after')) return 'tool.after';
    return ctx.untested(
      'the driver does not announce tool.after in features.events, the only interceptable event with an error object (and so an error.native)',
    );
  }
  const type = NO_CONTENT_EVENTS.find((e) => announced.includes(e));
  if (type !== undefined) return type;
  return ctx.untested(
    `the driver announces none of the events without content in features.events (${NO_CONTENT_EVENTS.join(', ')})`,
  );
}

/**
 * Declares the native-data cases: one per place the schemas give `native`, and the event's own
 * on an event without content. The judge reads what each subscription must get off its
 * includeNative and its view: nothing native without includeNative; with it, nothing its view
 * withholds; and everywhere the error as handed in, native apart.
 */
function declareNativeCases(fixture: HarnessFixture): void {
  for (const variant of ['event', 'error', 'event-without-content'] as const) {
    const site: NativeSite = variant === 'error' ? 'error' : 'event';
    driverCase(
      fixture,
      {
        name: `AHP-CONTENT-002/native:${variant}/only-with-includeNative-never-what-the-view-withholds`,
        requirements: ['AHP-CONTENT-002'],
        transports: ['http'],
      },
      { transport: 'http' },
      async (ctx, state) => {
        const type = nativeEventOrUntested(ctx, state, variant);
        const nonce = randomBytes(6).toString('hex');
        const conversation = givenConversation(nonce, { structured: false });
        const messages = CONTENT_EVENTS[type] === undefined ? [] : conversation;
        // The native copy holds the whole conversation even where the event carries none of it.
        const native = nativeCopy(conversation);
        ctx.evidence({ event: type, native: { at: NATIVE_PATHS[site], value: native } });
        let error: JsonValue | undefined;
        const received = await raiseWithContent(ctx, state, type, NATIVE_SPECS, messages, (payload) => {
          placeNative(site, payload, native);
          error = payload.error;
        });
        const problems = judgeFrames(type, NATIVE_SPECS, received, messages, nonce, {
          ids: ['AHP-CONTENT-002'],
          caseRule: 'content.selection',
          native: { error },
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
  for (const slot of SLOT_CASES) {
    driverCase(
      fixture,
      {
        name: `AHP-CONTENT-002/selection:slot:${slot.name}/each-view-of-the-slot-a-text-the-host-lacks-a-body-gap`,
        requirements: ['AHP-CONTENT-002'],
        transports: ['http'],
      },
      { transport: 'http', event: slot.event },
      async (ctx, state) => {
        const nonce = randomBytes(6).toString('hex');
        const messages = contentFor(
          slot.event,
          givenConversation(nonce, { structured: false, hostWithheld: true }),
        );
        const bareParts = slot.bareParts === true;
        const received = await raiseWithContent(ctx, state, slot.event, VIEW_SPECS, messages, (payload) =>
          placeContent(slot.event, payload, messages, bareParts),
        );
        const problems = judgeFrames(slot.event, VIEW_SPECS, received, messages, nonce, {
          ids: ['AHP-CONTENT-002'],
          caseRule: 'content.selection',
          bareParts,
        });
        if (problems.length > 0) throw new CaseFailure(problems);
      },
    );
  }
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
