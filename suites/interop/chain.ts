/**
 * The observation chains (observation-chain-scenarios.json, and the scenarios with `chain` in
 * lifecycle-scenarios.json): several subscriptions on one `tool.before`, each on the backend the
 * scenario names, as a backend set. The k-th interceptor asked answers the k-th scripted
 * response; an interrupted chain holds the first answer until the driver cancels the call. The
 * verdict compares who was asked and in which order, who failed (the driver's audit), who only
 * got a hooks/observe and with which view of the event (the mocks' records), and the final tool
 * input: what is protocol-relevant in the authors' exact frames, not their byte layout. Pure
 * except `runChain`.
 */
import { isDeepStrictEqual } from 'node:util';
import { isJsonObject, type JsonObject, type JsonValue } from '../../protocol/json.js';
import type { Behaviour } from '../../mock-backend/index.js';
import type { CaseContext } from '../common/case.js';
import { CaseFailure, type Finding } from '../common/finding.js';
import type { DriverAuditEntry, InvokeParams, InvokeResult } from '../driver/index.js';
import { startBackendSet, type SetBackend, type SetSubscription } from '../harness/kit/backend-set.js';
import { frameParams } from '../harness/kit/advertised-authority.js';
import { announcedTransports, anyTransport } from '../harness/kit/features.js';
import type { FixtureState } from '../harness/kit/fixture.js';
import { configureHarness } from '../harness/kit/lane-driver.js';
import { refusedValidRegistration } from '../harness/kit/run-case.js';
import { stepIds } from '../harness/kit/run-step.js';
import { CaseSteps, issuedBySuite } from '../harness/kit/step-identity.js';
import type { HarnessTransport } from '../harness/kit/timing.js';
import { finding, type RuleKey } from '../harness/kit/rules.js';
import type { LifecycleScenario } from './format.js';
import { refusedCapabilities } from './refused-capabilities.js';
import { scenarioEvent } from './event-identity.js';

/** One subscription of the chain, on the backend the scenario names. */
export interface ChainSubscription {
  id: string;
  backend: string;
  mode: 'intercept' | 'observe';
  policy: 'fail-open' | 'fail-closed';
  content: string;
}

/**
 * What this runner compares of a request or an observation: the tool input each view carries.
 * The items are not compared: the driver's tool.before event has no content slot to raise them.
 */
export interface EventView {
  input: JsonValue | undefined;
}

/** A chain ready to run. */
export interface ChainPlan {
  id: string;
  subscriptions: ChainSubscription[];
  /** Backend names, in order of first appearance (the registration's order). */
  backends: string[];
  /** The scripted answer of the k-th interceptor asked. */
  answers: JsonValue[][];
  interrupt: boolean;
  payload: JsonObject;
  capabilities: JsonObject;
  called: string[];
  failures: string[];
  observations: string[];
  input: JsonValue;
  /** The view each asked interceptor's request carries, in the order asked. */
  requestViews: EventView[];
  /** The view each expected observation carries, in the order of `observations`. */
  observationViews: EventView[];
}

/** Each departure is reported under the rule of its subject. */
const RULES = {
  called: 'composition.chain',
  failures: 'composition.chain',
  observations: 'dispatch.selector',
  input: 'composition.chain',
} as const satisfies Record<string, RuleKey>;

const text = (value: JsonValue | undefined): string => JSON.stringify(value ?? null);

/** The compared view of an event: its tool input. */
export function eventView(event: JsonValue | undefined): EventView {
  const e = isJsonObject(event) ? event : {};
  const tool = isJsonObject(e.tool) ? e.tool : {};
  return { input: tool.input };
}

function framesEvent(frames: JsonValue | undefined): EventView[] {
  return (Array.isArray(frames) ? frames : []).map((f) =>
    eventView(isJsonObject(f) && isJsonObject(f.params) ? f.params.event : undefined),
  );
}

function strings(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The plan of a chain scenario, or undefined when it has no chain. */
export function chainPlan(scenario: LifecycleScenario): ChainPlan | undefined {
  if (!isJsonObject(scenario.chain ?? null)) return undefined;
  const chain = scenario.chain as JsonObject;
  const subscriptions: ChainSubscription[] = (Array.isArray(chain.subscriptions) ? chain.subscriptions : [])
    .filter(isJsonObject)
    .map((s) => ({
      id: String(s.id),
      backend: String(s.backend),
      mode: s.mode === 'observe' ? 'observe' : 'intercept',
      policy: s.failurePolicy === 'fail-closed' ? 'fail-closed' : 'fail-open',
      content: typeof s.content === 'string' ? s.content : 'metadata',
    }));
  const proof = isJsonObject(scenario.chainProof ?? null) ? (scenario.chainProof as JsonObject) : {};
  const request = isJsonObject(scenario.requests.a) ? scenario.requests.a : {};
  const params = isJsonObject(request.params) ? request.params : {};
  const event = isJsonObject(params.event) ? params.event : {};
  // The driver's tool.before carries the tool only (no content slot), so item views are not compared.
  const tool = isJsonObject(event.tool) ? event.tool : {};
  const payload: JsonObject = {
    tool: {
      name: tool.name ?? 'task',
      input: tool.input ?? {},
      ...(typeof tool.kind === 'string' ? { kind: tool.kind } : {}),
    },
  };
  const sequence = Array.isArray(scenario.responseSequences?.a) ? scenario.responseSequences.a : [];
  const answers = sequence.map((r) => {
    const result = isJsonObject(r) && isJsonObject(r.result) ? r.result : {};
    return Array.isArray(result.effects) ? result.effects : [];
  });
  const expected = scenario.expected as JsonObject;
  return {
    id: scenario.id,
    subscriptions,
    backends: [...new Set(subscriptions.map((s) => s.backend))],
    answers,
    interrupt: chain.interrupt === true,
    payload,
    capabilities: isJsonObject(params.capabilities) ? params.capabilities : { effects: [] },
    called: strings(expected.called),
    failures: strings(expected.failures),
    observations: strings(expected.observations),
    input: expected.input ?? null,
    requestViews: framesEvent(proof.requests),
    observationViews: framesEvent(proof.observations),
  };
}

/** The backends of the set: each scenario backend's subscriptions, its interceptor's answer. */
export function chainBackends(plan: ChainPlan, timeoutMs: number): SetBackend[] {
  let asked = 0;
  return plan.backends.map((name) => {
    const own = plan.subscriptions.filter((s) => s.backend === name);
    const subscriptions: SetSubscription[] = own.map((s) =>
      s.mode === 'observe'
        ? { mode: 'observe', content: { default: s.content } }
        : { mode: 'intercept', policy: s.policy, timeoutMs, content: { default: s.content } },
    );
    const intercepts = own.filter((s) => s.mode === 'intercept').length;
    let reply: Behaviour | undefined;
    if (intercepts > 0) {
      const effects = (plan.answers[asked++] ?? []) as JsonObject[];
      reply = plan.interrupt && asked === 1 ? { kind: 'hang' } : { kind: 'respond', effects };
    }
    return { subscriptions, replies: reply === undefined ? [] : [reply] };
  });
}

/** What one run observed, per backend of the set (in `plan.backends` order). */
export interface ChainObservation {
  result: InvokeResult;
  backendIds: string[];
  /** Each backend's intercept requests: arrival wall time and event view. */
  requests: { at: number; view: EventView }[][];
  /** Each backend's notifications: their event views. */
  notifications: EventView[][];
}

/** The (backend, index within it) of each subscription: how the driver's audit names it. */
function audited(plan: ChainPlan, entry: DriverAuditEntry, ids: string[]): string | undefined {
  const backend = plan.backends[ids.indexOf(entry.backendId)];
  const own = plan.subscriptions.filter((s) => s.backend === backend);
  const at = entry.subscriptionIndex ?? own.findIndex((s) => s.mode === 'intercept');
  return own[at]?.id;
}

/** The findings of one run of `plan`. */
export function judgeChain(plan: ChainPlan, seen: ChainObservation): Finding[] {
  const findings: Finding[] = [];
  const backendOf = (id: string) =>
    plan.backends.indexOf(plan.subscriptions.find((s) => s.id === id)?.backend ?? '');
  // Who was asked, in order of arrival.
  const asked = plan.subscriptions
    .filter((s) => s.mode === 'intercept')
    .flatMap((s) => (seen.requests[backendOf(s.id)] ?? []).map((r) => ({ id: s.id, ...r })))
    .sort((a, b) => a.at - b.at);
  const askedIds = asked.map((a) => a.id);
  if (!isDeepStrictEqual(askedIds, plan.called)) {
    findings.push(
      finding(
        RULES.called,
        `the interceptors asked were ${text(askedIds)} in that order; the scenario asks ${text(plan.called)}`,
      ),
    );
  } else {
    asked.forEach((a, k) => {
      const want = plan.requestViews[k];
      if (want !== undefined && !isDeepStrictEqual(a.view, want)) {
        findings.push(
          finding(
            RULES.input,
            `${a.id} was asked with ${text(a.view as unknown as JsonValue)}; the scenario sends ${text(want as unknown as JsonValue)}`,
          ),
        );
      }
    });
  }
  const failed = seen.result.audit
    .filter((e) => e.outcome === 'operational-failure')
    .flatMap((e) => audited(plan, e, seen.backendIds) ?? []);
  if (!isDeepStrictEqual([...new Set(failed)].sort(), [...plan.failures].sort())) {
    findings.push(
      finding(
        RULES.failures,
        `the driver's audit reports ${text(failed)} failed; the scenario has ${text(plan.failures)}`,
      ),
    );
  }
  // Who only observes: per backend, the expected observations and their views, in order.
  plan.backends.forEach((_, b) => {
    const want = plan.observations
      .map((id, k) => ({ id, view: plan.observationViews[k] }))
      .filter((o) => backendOf(o.id) === b);
    const got = seen.notifications[b] ?? [];
    if (got.length !== want.length) {
      findings.push(
        finding(
          RULES.observations,
          `backend ${seen.backendIds[b] ?? b} received ${got.length} hooks/observe; the scenario has ${want.length} (${text(want.map((w) => w.id))})`,
        ),
      );
      return;
    }
    want.forEach((w, k) => {
      if (w.view !== undefined && !isDeepStrictEqual(got[k], w.view)) {
        findings.push(
          finding(
            RULES.observations,
            `the hooks/observe for ${w.id} carried ${text(got[k] as unknown as JsonValue)}; the scenario has ${text(w.view as unknown as JsonValue)}`,
          ),
        );
      }
    });
  });
  // An interrupted call has no settled input to report.
  if (
    !plan.interrupt &&
    seen.result.input !== undefined &&
    !isDeepStrictEqual(seen.result.input, plan.input)
  ) {
    findings.push(
      finding(
        RULES.input,
        `the final tool input is ${text(seen.result.input)}; the scenario has ${text(plan.input)}`,
      ),
    );
  }
  return findings;
}

const TRANSPORTS: readonly HarnessTransport[] = ['http', 'stdio-persistent', 'stdio-per_event'];

/** Runs one chain through the driver and judges it. */
export async function runChain(state: FixtureState, plan: ChainPlan, ctx: CaseContext): Promise<void> {
  const { info, margins } = state;
  if (info.features.advertise !== true) {
    ctx.untested(
      "the driver does not announce features.advertise, so the chain's capabilities (which decide which answers fail) cannot be handed to the harness",
    );
  }
  if (!plan.interrupt && info.features.outcomes !== true) {
    ctx.untested('the driver does not announce features.outcomes, so the final tool input is not reported');
  }
  const transport = TRANSPORTS.find((t) => announcedTransports(info).includes(t)) ?? anyTransport(info);
  const event = scenarioEvent(plan.payload, state.prefix, ++state.counter);
  const steps = new CaseSteps([stepIds(event)], issuedBySuite(state.prefix));
  const set = await startBackendSet(transport, chainBackends(plan, margins.answerDeadlineMs), steps);
  state.configured = undefined;
  try {
    const registration = set.registration();
    ctx.evidence({ transport, registration });
    const configured = await configureHarness(state, { registration }, ctx);
    if (!configured.accepted) throw new CaseFailure([refusedValidRegistration(configured.issues)]);
    const params: JsonObject = { event: event as JsonObject, capabilities: plan.capabilities };
    if (plan.interrupt) params.cancelAfterMs = margins.chainCancelAfterMs;
    set.begin(0);
    const result = await state.client.invoke(params as InvokeParams).catch((error: unknown) => {
      const refused = refusedCapabilities(error);
      if (refused !== undefined) ctx.untested(refused);
      throw error;
    });
    steps.addId(0, result.eventId);
    ctx.evidence({ invoke: params, result: result as unknown as JsonValue });
    const views = (i: number) => ({
      called: plan.called.filter(
        (id) => plan.subscriptions.find((s) => s.id === id)?.backend === plan.backends[i],
      ).length,
      observed: plan.observations.filter(
        (id) => plan.subscriptions.find((s) => s.id === id)?.backend === plan.backends[i],
      ).length,
    });
    // Observations may leave after the answer: wait for those the scenario expects, then for quiet.
    await Promise.all(
      set.ids.map(async (_, i) => {
        const { called, observed } = views(i);
        await set.waitFor(i, 0, 'hooks/intercept', called, margins.deliveryWaitMs, margins.settleToleranceMs);
        await set.waitFor(i, 0, 'hooks/observe', observed, margins.deliveryWaitMs, margins.settleToleranceMs);
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, margins.strayFrameWaitMs));
    const seen: ChainObservation = {
      result,
      backendIds: [...set.ids],
      requests: set.ids.map((_, i) =>
        set
          .callAt(i, 0)
          .requests.map((r) => ({ at: r.arrivedAtWallMs, view: eventView(frameParams(r.frame)?.event) })),
      ),
      notifications: set.ids.map((_, i) =>
        set.callAt(i, 0).notifications.map((r) => eventView(frameParams(r.frame)?.event)),
      ),
    };
    ctx.evidence({
      seen: JSON.parse(
        JSON.stringify({ requests: seen.requests, notifications: seen.notifications }),
      ) as JsonValue,
    });
    const findings = judgeChain(plan, seen);
    if (findings.length > 0) throw new CaseFailure(findings);
  } finally {
    await set.close();
  }
}
