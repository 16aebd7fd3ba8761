/**
 * AHP-FAIL-001, AHP-FAIL-002 and AHP-CORE-004 bind every interceptable event, not only
 * tool.before: for each other event type the driver announces (`features.events`), over one
 * transport (stdio persistent where the driver has it, else HTTP), an operational failure follows
 * the policy, the deadline ends a late backend by the policy, and a retry resends the same bytes.
 * AHP-CAP-001 too: each request's `capabilities` advertise only what that event's boundary can
 * take (the draft's per-event bounds, protocol/events.ts), not what tool.before advertises.
 * AHP-RPC-001: the event each request carries is valid against the draft's schema for its type
 * (protocol/event-validation.ts), as AHP-TB-001's cases judge tool.before, and its lineage: a
 * `parentEventId` names an event the harness sent before (lineage-check.ts).
 * Pure data out; each case raises its event on every call (kit/event-payloads.ts has the samples).
 */
import {
  EVENT_EFFECT_BOUNDS,
  INTERCEPTABLE_EVENTS,
  isInterceptableEvent,
  type InterceptableEvent,
} from '../../../protocol/events.js';
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import { announcedEvents, type InitializeResult } from '../../driver/index.js';
import type { HarnessCase, SubscriptionPatch } from '../kit/case-model.js';
import type { TransportChoiceCase } from '../kit/define.js';
import type { HarnessFixture } from '../kit/fixture.js';
import type { HarnessTransport } from '../kit/timing.js';
import { wireEventCheck } from './core-wire-event-cases.js';
import { eventSchemaCheck } from './event-schema-check.js';
import { LINEAGE_CHECK } from './lineage-check.js';
import { settlesByTheDeadline } from './deadline-timing.js';
import { CLASS_VARIANTS } from './fail-class-variants.js';
import { EXPLICIT_DENY_REASON } from './fail-matrix.js';
import { failTwiceThenAnswerCase } from './retry-cases.js';

/** The one transport of the family, preferred first: a persistent backend spawns once per harness. */
export const PER_EVENT_TRANSPORTS: readonly HarnessTransport[] = ['stdio-persistent', 'http'];

/** Every interceptable event but tool.before, whose cases are the other families. */
export const OTHER_EVENTS: readonly InterceptableEvent[] = INTERCEPTABLE_EVENTS.filter(
  (e) => e !== 'tool.before',
);

/** True when the event's boundary can be denied (protocol/events.ts EVENT_EFFECT_BOUNDS). */
export function boundaryCanDeny(event: InterceptableEvent): boolean {
  return EVENT_EFFECT_BOUNDS[event].effects.includes('deny');
}

/** The failure every AHP-FAIL-001 case here provokes: a JSON-RPC error reply, at once. */
const RPC_ERROR = (CLASS_VARIANTS['jsonrpc-error'][0] as { behaviour: HarnessCase['behaviour'] }).behaviour;

/**
 * One intercept subscription for every event of the family the driver announces: consecutive
 * cases with the same policy and deadline then keep one harness and its backend process.
 */
function familySubscription(info: InitializeResult): SubscriptionPatch {
  const events = announcedEvents(info).filter((e) => e !== 'tool.before' && isInterceptableEvent(e));
  return { set: { events } };
}

type Build = (event: InterceptableEvent, transport: HarnessTransport) => Omit<HarnessCase, 'subscription'>;

function choice(
  name: string,
  requirements: string[],
  event: InterceptableEvent,
  build: Build,
): TransportChoiceCase {
  return {
    name,
    requirements,
    transports: PER_EVENT_TRANSPORTS,
    needs: { event },
    build: (transport, info) => ({ ...build(event, transport), subscription: familySubscription(info) }),
  };
}

/** Fail-open: the JSON-RPC error leaves the operation unchanged, and nothing is synthetic. */
function failOpenCase(event: InterceptableEvent): TransportChoiceCase {
  const name = `AHP-FAIL-001/event:${event}/policy:fail-open/jsonrpc-error-continues-unchanged`;
  return choice(name, ['AHP-FAIL-001'], event, (e, transport) => ({
    name,
    requirements: ['AHP-FAIL-001'],
    transport,
    policy: 'fail-open',
    event: e,
    behaviour: RPC_ERROR,
  }));
}

/** The capability violations the protocol's validator tags AHP-CAP-001 (effects beyond the event's bounds). */
const CAPABILITIES_ENFORCEABLE = wireEventCheck(
  'capabilities advertise only what the event can take',
  'AHP-CAP-001',
  'event.capabilities-enforceable',
);

/**
 * The event the harness sends is valid against the draft's schema for its type: in the intercept
 * request, and (where the driver has `observe`) in the notification of an observe subscription to
 * the same event. Fail-open with an empty reply, so the intercept case keeps the harness of the
 * fail-open cases before it.
 */
function eventValidCase(event: InterceptableEvent): TransportChoiceCase {
  const name = `AHP-RPC-001/event:${event}/event-valid-against-its-schema-on-the-wire`;
  return choice(name, ['AHP-RPC-001'], event, (e, transport) => ({
    name,
    requirements: ['AHP-RPC-001'],
    transport,
    policy: 'fail-open',
    event: e,
    behaviour: { kind: 'respond' },
    checks: [eventSchemaCheck('hooks/intercept'), LINEAGE_CHECK],
  }));
}

function observedEventValidCase(event: InterceptableEvent): TransportChoiceCase {
  const name = `AHP-RPC-001/event:${event}/observed-event-valid-against-its-schema-on-the-wire`;
  return choice(name, ['AHP-RPC-001'], event, (e, transport) => ({
    name,
    requirements: ['AHP-RPC-001'],
    transport,
    policy: 'fail-open',
    event: e,
    behaviour: { kind: 'respond' },
    observe: { behaviour: { kind: 'respond' }, set: { events: [e] } },
    needs: ['observe'],
    checks: [eventSchemaCheck('hooks/observe')],
  }));
}

/**
 * The linked pairs the driver can raise (interaction-payloads.md: the elicitation result's
 * `parentEventId` correlates it with the AHP request event): the child is raised naming the
 * parent's suggested id, and must go out naming the id the parent went out under. Task and
 * workspace after events (linked to their proposals) and hook.failure (linked to the failed event)
 * are observation-only, which `invoke` cannot raise.
 */
export const LINKED_PAIRS: readonly { parent: InterceptableEvent; child: InterceptableEvent }[] = [
  { parent: 'user.elicitation.request', child: 'user.elicitation.result' },
];

function lineageCase(pair: (typeof LINKED_PAIRS)[number]): TransportChoiceCase {
  const name = `AHP-RPC-001/event:${pair.child}/parent-event-id-names-the-${pair.parent}-sent-before`;
  return choice(name, ['AHP-RPC-001'], pair.child, (_, transport) => ({
    name,
    requirements: ['AHP-RPC-001'],
    transport,
    policy: 'fail-open',
    label: pair.parent,
    event: pair.parent,
    behaviour: { kind: 'respond' },
    then: [{ label: pair.child, event: pair.child, parent: 0, behaviour: { kind: 'respond' } }],
    checks: [LINEAGE_CHECK],
  }));
}

/**
 * The event's request advertises only effects its boundary can take. Fail-open with an empty
 * reply, so it keeps the harness of the fail-open cases before it.
 */
function capabilitiesCase(event: InterceptableEvent): TransportChoiceCase {
  const name = `AHP-CAP-001/event:${event}/advertises-only-what-the-boundary-can-take`;
  return choice(name, ['AHP-CAP-001'], event, (e, transport) => ({
    name,
    requirements: ['AHP-CAP-001'],
    transport,
    policy: 'fail-open',
    event: e,
    behaviour: { kind: 'respond' },
    checks: [CAPABILITIES_ENFORCEABLE],
  }));
}

/**
 * Fail-closed where the boundary can deny: the JSON-RPC error is a synthetic deny, and the next
 * call's explicit deny is reported as the backend's, so the two are told apart.
 */
function failClosedCase(event: InterceptableEvent): TransportChoiceCase {
  const name = `AHP-FAIL-001/event:${event}/policy:fail-closed/jsonrpc-error-denies-synthetically-unlike-an-explicit-deny`;
  return choice(name, ['AHP-FAIL-001'], event, (e, transport) => ({
    name,
    requirements: ['AHP-FAIL-001'],
    transport,
    policy: 'fail-closed',
    event: e,
    label: 'jsonrpc-error',
    behaviour: RPC_ERROR,
    then: [{ label: 'explicit-deny', event: e, behaviour: { kind: 'deny', reason: EXPLICIT_DENY_REASON } }],
  }));
}

/**
 * The deadline: the mock holds `[]` past a short deadline. Where the boundary can deny the case is
 * fail-closed, and the decision shows a harness that took the late `[]` (it continues instead of
 * the synthetic deny). Elsewhere it is fail-open, where the decision is the same either way and an
 * audit need not tell: the reply is held past the settle check's whole tolerance, so a harness
 * that took it settles too late for that check, whatever its audit says.
 */
function deadlineCase(fixture: HarnessFixture, event: InterceptableEvent): TransportChoiceCase {
  const policy: FailurePolicy = boundaryCanDeny(event) ? 'fail-closed' : 'fail-open';
  const name = `AHP-FAIL-002/event:${event}/policy:${policy}/late-reply-is-ignored-and-the-policy-applied`;
  return choice(name, ['AHP-FAIL-002'], event, (e, transport) => ({
    name,
    requirements: ['AHP-FAIL-002'],
    transport,
    policy,
    event: e,
    behaviour: { kind: 'respond', effects: [] },
    late: policy === 'fail-closed' ? true : 'past-tolerance',
    checks: [settlesByTheDeadline(fixture)],
  }));
}

/** A retried failure resends identical bytes (retry-cases.ts; needs `features.retries`). */
function resendCase(event: InterceptableEvent): TransportChoiceCase {
  const name = `AHP-CORE-004/event:${event}/policy:fail-open/fail-first-2-then-answer-resends-identical-bytes`;
  return choice(name, ['AHP-CORE-004'], event, (e, transport) =>
    failTwiceThenAnswerCase({
      name,
      requirements: ['AHP-CORE-004'],
      transport,
      policy: 'fail-open',
      event: e,
    }),
  );
}

/**
 * Every case of the family, grouped by registration (policy, deadline, retries) so that a lane's
 * consecutive cases keep their harness; the deadline cases, which each start one, come last.
 */
export function perEventCases(fixture: HarnessFixture): TransportChoiceCase[] {
  return [
    ...OTHER_EVENTS.map(failOpenCase),
    ...OTHER_EVENTS.map(capabilitiesCase),
    ...OTHER_EVENTS.map(eventValidCase),
    ...LINKED_PAIRS.map(lineageCase),
    ...OTHER_EVENTS.map(observedEventValidCase),
    // Fail-closed is excluded where the boundary cannot deny (tool.after, session.start,
    // turn.finish.before...): failure.md (AHP-FAIL-001) defines it only as denying the operation,
    // and the draft names no outcome for a boundary whose effects exclude deny.
    ...OTHER_EVENTS.filter(boundaryCanDeny).map(failClosedCase),
    ...OTHER_EVENTS.map(resendCase),
    ...OTHER_EVENTS.map((e) => deadlineCase(fixture, e)),
  ];
}
