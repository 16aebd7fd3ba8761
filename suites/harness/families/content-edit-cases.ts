/**
 * AHP-EDIT-001 beyond the tool input (driver protocol v1.1: `invoke` raises an announced event
 * with content the suite hands in). Each case is a chain of two intercept subscriptions and an
 * observer, over HTTP, each subscription on a backend (a mock) of its own (kit/backend-set.ts):
 * the first backend returns a `modify` of the event's content target, the second answers `[]`,
 * and what the second backend and the observer receive is judged against the content the edit
 * makes (composition.md, AHP-EDIT-001):
 * - per event and target, a replace (the whole list swapped) and a merge (appended in order, a
 *   repeated entry kept twice), each received exactly by the later interceptor and the observer;
 *   untested with the reason when the first request did not advertise that edit;
 * - a whole-list replace sent by a subscription whose view withholds some of the target
 *   (metadata selection, or a text part the host handed in as a content gap) is neither offered
 *   to it nor applied: under fail-open the later receivers get the original content;
 * - a merge that carries a new text message and an edited attachment (the user's image under
 *   its id, bound to another reference) is rejected whole: the later receivers get the original
 *   content, without the text message either.
 * The two rejection cases need the first request to advertise some modify of the target (a
 * harness that edits nothing there shows nothing by refusing).
 */
import { randomBytes } from 'node:crypto';
import type { InterceptableEvent } from '../../../protocol/events.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../../protocol/json.js';
import type { CaseContext } from '../../common/case.js';
import { CaseFailure, type Finding } from '../../common/finding.js';
import { announcedEvents } from '../../driver/index.js';
import { advertisesModify } from '../../../protocol/capabilities.js';
import { requestCapabilities, unadvertisedModify } from '../kit/advertised-authority.js';
import { startBackendSet, type SetBackend } from '../kit/backend-set.js';
import { driverCase } from '../kit/define.js';
import { samplePayload } from '../kit/event-payloads.js';
import type { FixtureState, HarnessFixture } from '../kit/fixture.js';
import { stepIds } from '../kit/run-step.js';
import { finding, type RuleKey } from '../kit/rules.js';
import { CaseSteps, issuedBySuite } from '../kit/step-identity.js';
import { utf8Text, type WireFrame } from '../kit/wire-records.js';
import {
  CONTENT_EDIT_TARGETS,
  contentEdit,
  contentShape,
  contentWithAttachment,
  editEntries,
  givenList,
  placeGiven,
  setSlot,
  slotOf,
  textContent,
  type ContentEditTarget,
  type GivenContent,
  withGap,
} from './content-edit-data.js';
import { configureAndInvoke } from './content-raise.js';
import { ordinal } from './edit-judge.js';

/** The three receivers of a case, in registration order. */
type Receiver = 'first' | 'second' | 'observer';

/** What the three receivers were sent for the call: the first request, and each event. */
interface ChainReceived {
  firstRequest: WireFrame | undefined;
  events: Map<Receiver, JsonValue | undefined>;
}

/**
 * The backends: the first interceptor (its `content` as given) returns `effects`, the second (body)
 * answers `[]`, the observer sees the body. Fail-open everywhere, so a rejected edit moves on.
 */
function chainBackends(
  type: string,
  firstContent: JsonObject,
  effects: JsonValue[],
  timeoutMs: number,
): SetBackend[] {
  const intercept = (content: JsonObject) => ({
    mode: 'intercept' as const,
    policy: 'fail-open' as const,
    timeoutMs,
    events: [type],
    content,
  });
  return [
    {
      id: 'dev.ahp-conformance.edit-first',
      subscriptions: [intercept(firstContent)],
      replies: [{ kind: 'respond', effects: effects as never }],
    },
    { id: 'dev.ahp-conformance.edit-second', subscriptions: [intercept({ default: 'body' })], replies: [] },
    {
      id: 'dev.ahp-conformance.edit-observer',
      subscriptions: [{ mode: 'observe', events: [type], content: { default: 'body' } }],
      replies: [],
    },
  ];
}

function eventOf(frame: WireFrame | undefined): JsonValue | undefined {
  if (frame === undefined) return undefined;
  try {
    const message = JSON.parse(utf8Text(frame.bytes)) as JsonValue;
    return isJsonObject(message) && isJsonObject(message.params) ? message.params.event : undefined;
  } catch {
    return undefined;
  }
}

/** Configures the chain, raises one event with `given`, and returns what each receiver was sent. */
async function raiseChain(
  ctx: CaseContext,
  state: FixtureState,
  target: ContentEditTarget,
  given: GivenContent,
  firstContent: JsonObject,
  effects: JsonValue[],
  adjust: (payload: JsonObject) => void = () => undefined,
): Promise<ChainReceived> {
  const n = ++state.counter;
  const payload = samplePayload(target.event as InterceptableEvent);
  if (isJsonObject(payload.call)) payload.call = { id: `call-${state.prefix}-${n}` };
  placeGiven(target, payload, given);
  adjust(payload);
  const event = {
    type: target.event,
    id: `evt-${state.prefix}-${n}`,
    session: { id: `sess-${state.prefix}` },
    ...payload,
  };
  const steps = new CaseSteps([stepIds(event)], issuedBySuite(state.prefix));
  const { margins } = state;
  const backends = chainBackends(target.event, firstContent, effects, margins.answerDeadlineMs);
  const set = await startBackendSet('http', backends, steps);
  try {
    await configureAndInvoke(ctx, state, set, steps, event);
    // The driver answers once the call settled, so every delivery was sent (the observer's is
    // owned by the call too): each wait ends once its frame arrived or its wire is quiet.
    await Promise.all([
      set.waitFor(0, 0, 'hooks/intercept', 1, margins.deliveryWaitMs),
      set.waitFor(1, 0, 'hooks/intercept', 1, margins.deliveryWaitMs),
      set.waitFor(2, 0, 'hooks/observe', 1, margins.deliveryWaitMs),
    ]);
    const firstRequest = set.callAt(0, 0).requests[0]?.frame;
    const events = new Map<Receiver, JsonValue | undefined>([
      ['first', eventOf(firstRequest)],
      ['second', eventOf(set.callAt(1, 0).requests[0]?.frame)],
      ['observer', eventOf(set.callAt(2, 0).notifications[0]?.frame)],
    ]);
    ctx.evidence({
      received: Object.fromEntries(
        [...events].map(([label, e]) => [label, e === undefined ? null : (slotOf(target, e) ?? null)]),
      ),
    });
    return { firstRequest, events };
  } finally {
    await set.close();
  }
}

/**
 * Findings of `rule` for each later receiver (the second interceptor, the observer) that was
 * sent other content than `expected`; a receiver sent nothing is a finding of the same rule.
 */
function laterProblems(
  target: ContentEditTarget,
  received: ChainReceived,
  expected: JsonValue[],
  rule: RuleKey,
  because: string,
  way?: string,
): Finding[] {
  const want = JSON.stringify(contentShape(expected));
  const where = `$.params.event.${target.slot}`;
  return (['second', 'observer'] as const).flatMap((label) => {
    const who = label === 'second' ? 'the second interceptor' : 'the observer';
    const event = received.events.get(label);
    const options = way === undefined ? {} : { way };
    if (event === undefined) return [finding(rule, `${who} was sent no ${target.event} event`, options)];
    const got = JSON.stringify(contentShape(slotOf(target, event)));
    if (got === want) return [];
    return [finding(rule, `${who} was sent ${where} ${got}; ${because}: ${want}`, options)];
  });
}

/** The first request's capabilities, or untested with the reason when it lacks `operations`. */
function requireAdvertised(
  ctx: CaseContext,
  target: ContentEditTarget,
  received: ChainReceived,
  operations: readonly ('replace' | 'merge')[],
): void {
  if (received.firstRequest === undefined) {
    throw new CaseFailure([finding('delivery.request-sent', 'the first interceptor was sent no request')]);
  }
  const needs = operations.map((operation) => ({ target: target.target, operation }));
  const which = `the ${ordinal(0)} interceptor's request at ${target.event}`;
  const lacking = unadvertisedModify(requestCapabilities(received.firstRequest), needs, which);
  if (lacking !== undefined) ctx.untested(lacking);
}

/** A chain case: the first backend's replace or merge reaches the second and the observer exactly. */
async function runChainCase(
  ctx: CaseContext,
  state: FixtureState,
  target: ContentEditTarget,
  operation: 'replace' | 'merge',
): Promise<void> {
  const nonce = randomBytes(6).toString('hex');
  const given = textContent(target, nonce);
  const edit = contentEdit(target, operation, given, nonce);
  const effect = { type: 'modify', target: target.target, operation, value: edit.value };
  const received = await raiseChain(ctx, state, target, given, { default: 'body' }, [effect]);
  requireAdvertised(ctx, target, received, [operation]);
  const because =
    operation === 'replace'
      ? 'the accepted replace makes the list exactly its value'
      : 'the accepted merge appends its entries in order, the repeated one twice';
  const problems = laterProblems(target, received, edit.effective, 'edit.content-passed-on', because);
  if (problems.length > 0) throw new CaseFailure(problems);
}

/** Events whose target holds the user's message (with its image): the rejection cases pick the first announced. */
const REJECTION_EVENTS = [
  'turn.start',
  'model.request.before',
  'model.response.after',
  'turn.finish.before',
  'tool.after',
  'user.message.inbound',
];

function rejectionTarget(ctx: CaseContext, state: FixtureState): ContentEditTarget {
  const announced = announcedEvents(state.info);
  const type = REJECTION_EVENTS.find((e) => announced.includes(e));
  const target = CONTENT_EDIT_TARGETS.find((t) => t.event === type);
  if (target === undefined) {
    return ctx.untested(
      `the driver announces none of the events whose content target holds a user's message in features.events (${REJECTION_EVENTS.join(', ')})`,
    );
  }
  ctx.evidence({ event: target.event, target: target.target });
  return target;
}

/** A way the first subscription's view of the target withholds content. */
interface Withheld {
  label: string;
  /** The first subscription's content selection. */
  content: JsonObject;
  /** The text part handed in as a content gap, if any. */
  gap?: string;
  /** Why a replace is out of its authority, for the finding. */
  why: string;
}

const WITHHELD: readonly Withheld[] = [
  {
    label: 'hidden-text',
    content: { default: 'metadata' },
    why: 'its content selection (metadata) withholds every text of it',
  },
  {
    label: 'content-gap',
    content: { default: 'body' },
    gap: 'user-1',
    why: "the user's text part in it is a content gap",
  },
];

/**
 * A whole-list replace from a subscription whose view withholds some of the target (metadata
 * selection, or a text part handed in as a gap): not offered to it, and not applied when sent
 * (fail-open: the later receivers get the original content).
 */
async function runHiddenReplaceCase(
  ctx: CaseContext,
  state: FixtureState,
  withheld: Withheld,
): Promise<void> {
  const target = rejectionTarget(ctx, state);
  const nonce = randomBytes(6).toString('hex');
  const given = textContent(target, nonce);
  const edit = contentEdit(target, 'replace', given, nonce);
  const effect = { type: 'modify', target: target.target, operation: 'replace', value: edit.value };
  const { gap } = withheld;
  const original = gap === undefined ? givenList(target, given) : withGap(givenList(target, given), gap);
  const adjust = (payload: JsonObject) => {
    if (gap !== undefined) setSlot(target, payload, original);
  };
  const received = await raiseChain(ctx, state, target, given, withheld.content, [effect], adjust);
  if (received.firstRequest === undefined) {
    throw new CaseFailure([finding('delivery.request-sent', 'the first interceptor was sent no request')]);
  }
  const capabilities = requestCapabilities(received.firstRequest);
  const offersReplace =
    capabilities !== undefined && advertisesModify(capabilities, target.target, 'replace');
  if (!offersReplace) requireAdvertised(ctx, target, received, ['merge']);
  const problems: Finding[] = offersReplace
    ? [
        finding(
          'edit.hidden-replace',
          `the first interceptor's request advertises modify replace of ${target.target} although ${withheld.why}`,
          { way: 'advertised' },
        ),
      ]
    : [];
  problems.push(
    ...laterProblems(
      target,
      received,
      original,
      'edit.hidden-replace',
      'a replace of content the subscription could not see is refused, so (fail-open) the content stays as given',
      'applied',
    ),
  );
  if (problems.length > 0) throw new CaseFailure(problems);
}

/**
 * A merge of a new text message and the user's image under its own id but bound to another
 * reference: an edit of an immutable attachment, so the whole response is refused, the valid
 * text message with it (fail-open: the later receivers get the original content, the image as
 * it was).
 */
async function runAttachmentCase(ctx: CaseContext, state: FixtureState): Promise<void> {
  const target = rejectionTarget(ctx, state);
  const nonce = randomBytes(6).toString('hex');
  const given = contentWithAttachment(target, nonce);
  const image = given.messages.flatMap((m) => m.parts).find((p) => p.kind === 'attachment');
  if (image === undefined) return ctx.untested(`the content of ${target.event} holds no attachment`);
  const edited = {
    id: image.id,
    kind: 'attachment',
    mediaType: image.mediaType,
    selection: 'body',
    body: { ref: `edited-${nonce}` },
  };
  // A valid text entry first: refusing the response whole leaves it out too.
  const [text] = editEntries(target, nonce, ['edit-1']) as [JsonValue];
  const value = [text, { id: 'edit-attachment', role: target.role, parts: [edited] }];
  const effect = { type: 'modify', target: target.target, operation: 'merge', value };
  const received = await raiseChain(ctx, state, target, given, { default: 'body' }, [effect]);
  requireAdvertised(ctx, target, received, ['merge']);
  const problems = laterProblems(
    target,
    received,
    givenList(target, given),
    'edit.attachment-immutable',
    `a merge that rebinds attachment ${image.id} to a reference it was never given is refused whole, so (fail-open) the content stays as given`,
  );
  if (problems.length > 0) throw new CaseFailure(problems);
}

/** Declares the AHP-EDIT-001 content cases. */
export function declareContentEditCases(fixture: HarnessFixture): void {
  for (const target of CONTENT_EDIT_TARGETS) {
    for (const operation of ['replace', 'merge'] as const) {
      const what =
        operation === 'replace'
          ? 'swaps-the-whole-list-for-later-receivers'
          : 'appends-in-order-without-deduplication-for-later-receivers';
      driverCase(
        fixture,
        {
          name: `AHP-EDIT-001/content:${target.event}/${target.target}-${operation}-${what}`,
          requirements: ['AHP-EDIT-001'],
          transports: ['http'],
        },
        { transport: 'http', event: target.event, features: ['observe'] },
        (ctx, state) => runChainCase(ctx, state, target, operation),
      );
    }
  }
  for (const withheld of WITHHELD) {
    driverCase(
      fixture,
      {
        name: `AHP-EDIT-001/content:${withheld.label}/whole-list-replace-neither-offered-nor-applied`,
        requirements: ['AHP-EDIT-001'],
        transports: ['http'],
      },
      { transport: 'http', features: ['observe'] },
      (ctx, state) => runHiddenReplaceCase(ctx, state, withheld),
    );
  }
  driverCase(
    fixture,
    {
      name: 'AHP-EDIT-001/content:attachment/edited-attachment-rejects-the-whole-response',
      requirements: ['AHP-EDIT-001'],
      transports: ['http'],
    },
    { transport: 'http', features: ['observe'] },
    (ctx, state) => runAttachmentCase(ctx, state),
  );
}
