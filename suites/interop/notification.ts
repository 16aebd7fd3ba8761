/**
 * The sender half of the catalogue's execution and lineage scenarios: a `notify` step is a
 * hooks/observe a sender emits, which must go out unchanged. Where the driver can make the
 * harness raise that event (an interceptable type, `features.events`), an observe subscription
 * to it receives the notification, and every member the call handed in must arrive as given.
 * Identities the harness sets itself (`id`, `source`, `time`, `session`, `call`) and the content
 * slots (whose views follow the content selection) are not compared. The receiver half (raw
 * notifications a receiver must refuse, lineage a receiver checks) keeps its reason. Pure except
 * `runNotification`.
 */
import { isDeepStrictEqual } from 'node:util';
import { isJsonObject, type JsonObject, type JsonValue } from '../../protocol/json.js';
import { INTERCEPTABLE_EVENTS } from '../../protocol/events.js';
import type { CaseContext } from '../common/case.js';
import { CaseFailure, type Finding } from '../common/finding.js';
import type { InvokeParams } from '../driver/index.js';
import { startBackendSet } from '../harness/kit/backend-set.js';
import { frameParams } from '../harness/kit/advertised-authority.js';
import { announcedTransports, anyTransport } from '../harness/kit/features.js';
import type { FixtureState } from '../harness/kit/fixture.js';
import { configureHarness } from '../harness/kit/lane-driver.js';
import { refusedValidRegistration } from '../harness/kit/run-case.js';
import { stepIds } from '../harness/kit/run-step.js';
import { CaseSteps, issuedBySuite } from '../harness/kit/step-identity.js';
import type { HarnessTransport } from '../harness/kit/timing.js';
import { finding } from '../harness/kit/rules.js';
import type { CatalogueScenario } from './format.js';
import { payloadOf } from './translate.js';

/** A notification the harness is made to send. */
export interface NotificationPlan {
  id: string;
  eventType: string;
  /** What `invoke` hands in beyond the identities, and must go out unchanged. */
  payload: JsonObject;
  /** The identities the event carries, which the run gives values unique to the call. */
  identities: ('session' | 'call')[];
}

/** Members the harness sets itself, and content slots whose view the content selection decides. */
const NOT_COMPARED = new Set([
  'id',
  'source',
  'time',
  'type',
  'session',
  'call',
  'items',
  'summary',
  'message',
  'delta',
  'partialOutput',
]);

function eventOf(step: CatalogueScenario['steps'][number]): JsonObject | undefined {
  const message = (step as { message?: JsonValue }).message;
  if (!isJsonObject(message ?? null) || !isJsonObject((message as JsonObject).params ?? null))
    return undefined;
  const event = ((message as JsonObject).params as JsonObject).event;
  return isJsonObject(event ?? null) ? (event as JsonObject) : undefined;
}

/** Why a notification scenario is not run, or undefined when it is. */
export function notificationNotRun(scenario: CatalogueScenario): string | undefined {
  if (scenario.steps.some((s) => s.op === 'rawNotify')) {
    return 'it hands a receiver a raw notification to refuse (the receiver half); a harness sends notifications of its own events and receives none';
  }
  if (scenario.steps.length !== 1) {
    return 'its notifications are a sequence whose lineage (parents, causes, sources) a receiver checks; a harness sets its own event identities, which no driver call names';
  }
  const event = eventOf(scenario.steps[0] as CatalogueScenario['steps'][number]);
  const type = String(event?.type ?? '');
  if (!(INTERCEPTABLE_EVENTS as readonly string[]).includes(type)) {
    return `${type} is observation-only, and the driver protocol raises only interceptable events, so no driver call makes the harness send it`;
  }
  if (event !== undefined && ('parentEventId' in event || 'causedBy' in event)) {
    return 'its lineage member names an event id the harness sets itself, which no driver call names';
  }
  return undefined;
}

/** The plan of a notification scenario the driver can make the harness send, or undefined. */
export function notificationPlan(scenario: CatalogueScenario): NotificationPlan | undefined {
  if (scenario.category === 'registration' || notificationNotRun(scenario) !== undefined) return undefined;
  const event = eventOf(scenario.steps[0] as CatalogueScenario['steps'][number]) as JsonObject;
  const eventType = String(event.type);
  const rest = payloadOf(event);
  // The driver's tool.before carries the tool only.
  const tool = isJsonObject(event.tool ?? null) ? (event.tool as JsonObject) : {};
  const payload: JsonObject =
    eventType === 'tool.before'
      ? {
          tool: {
            name: tool.name ?? 'task',
            input: tool.input ?? {},
            ...(typeof tool.kind === 'string' ? { kind: tool.kind } : {}),
          },
        }
      : rest;
  const identities = (['session', 'call'] as const).filter((k) => k in event || eventType === 'tool.before');
  return { id: scenario.id, eventType, payload, identities };
}

/** The members of `payload` that did not go out as handed in. */
export function notificationFindings(
  plan: NotificationPlan,
  sent: readonly (JsonValue | undefined)[],
): Finding[] {
  if (sent.length !== 1) {
    return [
      finding(
        'observe.delivered',
        `the observer of ${plan.eventType} received ${sent.length} hooks/observe; the scenario sends 1`,
      ),
    ];
  }
  const event = isJsonObject(sent[0] ?? null) ? (sent[0] as JsonObject) : {};
  const changed: string[] = [];
  if (event.type !== plan.eventType) changed.push('type');
  for (const [key, value] of Object.entries(plan.payload)) {
    if (NOT_COMPARED.has(key)) continue;
    // Of the tool, the members handed in (the harness may describe its tool further).
    const got =
      key === 'tool' && isJsonObject(value) && isJsonObject(event.tool ?? null)
        ? Object.fromEntries(Object.keys(value).map((k) => [k, (event.tool as JsonObject)[k]]))
        : event[key];
    if (!isDeepStrictEqual(got, value)) changed.push(key);
  }
  return changed.length === 0
    ? []
    : [
        finding(
          'observe.delivered',
          `the hooks/observe of ${plan.eventType} changed ${changed.join(', ')} from what the call handed in`,
        ),
      ];
}

const TRANSPORTS: readonly HarnessTransport[] = ['http', 'stdio-persistent', 'stdio-per_event'];

export async function runNotification(
  state: FixtureState,
  plan: NotificationPlan,
  ctx: CaseContext,
): Promise<void> {
  const { info, margins } = state;
  const transport = TRANSPORTS.find((t) => announcedTransports(info).includes(t)) ?? anyTransport(info);
  const n = ++state.counter;
  const event: JsonObject = { ...structuredClone(plan.payload), id: `evt-${state.prefix}-${n}` };
  if (plan.identities.includes('session')) event.session = { id: `sess-${state.prefix}` };
  if (plan.identities.includes('call')) event.call = { id: `call-${state.prefix}-${n}` };
  if (plan.eventType !== 'tool.before') event.type = plan.eventType;
  const steps = new CaseSteps([stepIds(event as InvokeParams['event'])], issuedBySuite(state.prefix));
  const set = await startBackendSet(
    transport,
    [{ subscriptions: [{ mode: 'observe', events: [plan.eventType] }], replies: [] }],
    steps,
  );
  state.configured = undefined;
  try {
    const registration = set.registration();
    ctx.evidence({ transport, registration });
    const configured = await configureHarness(state, { registration }, ctx);
    if (!configured.accepted) throw new CaseFailure([refusedValidRegistration(configured.issues)]);
    set.begin(0);
    const result = await state.client.invoke({ event } as InvokeParams);
    steps.addId(0, result.eventId);
    ctx.evidence({ invoke: { event }, result: result as unknown as JsonValue });
    await set.waitFor(0, 0, 'hooks/observe', 1, margins.deliveryWaitMs, margins.settleToleranceMs);
    await new Promise((resolve) => setTimeout(resolve, margins.strayFrameWaitMs));
    const sent = set.callAt(0, 0).notifications.map((f) => frameParams(f.frame)?.event);
    ctx.evidence({ sent: sent.map((e) => e ?? null) });
    const findings = notificationFindings(plan, sent);
    if (findings.length > 0) throw new CaseFailure(findings);
  } finally {
    await set.close();
  }
}
