/**
 * The lifecycle scenarios of lifecycle-scenarios.json (those without a chain) that map onto one
 * driver call: one request `a` whose reply the mock holds, sends twice, follows an unsolicited
 * frame, or releases only after the driver cancelled the call; observe steps become observer
 * subscriptions. The rest keep the one-line reason `lifecycleNotRun` gives. Pure except
 * `runLifecycle`.
 */
import { isDeepStrictEqual } from 'node:util';
import { isJsonObject, type JsonObject, type JsonValue } from '../../protocol/json.js';
import type { Behaviour } from '../../mock-backend/index.js';
import type { CaseContext } from '../common/case.js';
import { CaseFailure, type Finding } from '../common/finding.js';
import type { InvokeParams, InvokeResult } from '../driver/index.js';
import { startBackendSet, type SetBackend } from '../harness/kit/backend-set.js';
import { frameParams } from '../harness/kit/advertised-authority.js';
import { announcedTransports } from '../harness/kit/features.js';
import type { FixtureState } from '../harness/kit/fixture.js';
import { configureHarness } from '../harness/kit/lane-driver.js';
import { refusedValidRegistration } from '../harness/kit/run-case.js';
import { stepIds } from '../harness/kit/run-step.js';
import { CaseSteps, issuedBySuite } from '../harness/kit/step-identity.js';
import type { HarnessTransport } from '../harness/kit/timing.js';
import { finding, type RuleKey } from '../harness/kit/rules.js';
import { compareOutcome } from './compare.js';
import { outcomeSchema, type InteropOutcome, type LifecycleScenario } from './format.js';
import { refusedCapabilities } from './refused-capabilities.js';
import { replyBehaviour } from './translate.js';
import { scenarioEvent } from './event-identity.js';

/** How the reply to the one request travels. */
export type ReplyShape = 'plain' | 'duplicate' | 'after-unsolicited' | 'after-cancel';

/** A lifecycle scenario ready to run. */
export interface LifecyclePlan {
  id: string;
  shape: ReplyShape;
  payload: JsonObject;
  capabilities: JsonObject;
  /** The scripted response (with its id) and, for `after-unsolicited`, the frame sent first. */
  response: JsonObject;
  unsolicited?: JsonObject;
  /** The content selection of each observer subscription, in the scenario's order. */
  observers: string[];
  /** The settled outcome, absent when nothing may be published (a cancelled call). */
  state?: InteropOutcome;
  /** The tool input each observer's hooks/observe carries. */
  observed: JsonValue[];
  rule: RuleKey;
}

const RULE_OF: Record<ReplyShape, RuleKey> = {
  plain: 'edit.outcome',
  duplicate: 'stdio.correlate-by-id',
  'after-unsolicited': 'stdio.correlate-by-id',
  'after-cancel': 'interrupt.cancel-ends-the-call',
};

type Step = LifecycleScenario['steps'][number];
const opsOf = (steps: readonly Step[]) => steps.map((s) => s.op);

/** Why a lifecycle scenario without a chain does not map onto one driver call, or undefined. */
export function lifecycleNotRun(scenario: LifecycleScenario): string | undefined {
  const ops = opsOf(scenario.steps);
  if (ops.includes('upload')) {
    return 'its upload steps judge the answers of the endpoint that receives the bytes (201, 400, 401 for the size, hash and credentials sent); a harness is the sender of uploads, which our AHP-CONTENT-002 cases judge';
  }
  const keys = new Set(
    scenario.steps.filter((s) => s.op === 'send' && s.bypassSDK !== true).map((s) => String(s.key)),
  );
  if (keys.size > 1 && !ops.includes('emit')) {
    return 'it keeps two calls outstanding on one backend at once and accepts them out of order; the driver protocol raises one call at a time';
  }
  if (keys.size > 1) return undefined;
  const cancel = ops.indexOf('cancel');
  if (cancel >= 0) {
    const before = ops.slice(0, cancel);
    if (before.includes('accept')) {
      return "it cancels a call after its reply was accepted; the driver's cancelAfterMs acts only while the call is still pending";
    }
    if (before.includes('receive')) {
      return 'it cancels between receiving the reply and accepting it; a harness accepts a reply as it reads it, so no driver call can be cancelled between the two';
    }
    if (ops.includes('observe')) {
      return 'whether a cancelled boundary is observed is here a step the client chooses to take; observation-chain-interrupt expects no observation at the same boundary, so the files leave it to the host';
    }
  }
  return undefined;
}

function shapeOf(steps: readonly Step[]): ReplyShape {
  const ops = opsOf(steps);
  if (ops.includes('cancel')) return 'after-cancel';
  if (ops.includes('emit')) return 'after-unsolicited';
  if (steps.some((s) => s.op === 'send' && s.bypassSDK === true)) return 'duplicate';
  return 'plain';
}

/** The plan of a lifecycle scenario that maps onto one driver call, or undefined. */
export function lifecyclePlan(scenario: LifecycleScenario): LifecyclePlan | undefined {
  if (scenario.chain !== undefined || lifecycleNotRun(scenario) !== undefined) return undefined;
  // Two calls in turn (a stale reply across them) are stale-reply.ts's.
  if (
    new Set(scenario.steps.filter((s) => s.op === 'send' && s.bypassSDK !== true).map((s) => String(s.key)))
      .size > 1
  ) {
    return undefined;
  }
  const request = isJsonObject(scenario.requests.a) ? scenario.requests.a : undefined;
  const response = isJsonObject(scenario.responses.a) ? scenario.responses.a : undefined;
  if (request === undefined || response === undefined) return undefined;
  const params = isJsonObject(request.params) ? request.params : {};
  const event = isJsonObject(params.event) ? params.event : {};
  const tool = isJsonObject(event.tool) ? event.tool : {};
  const expected = scenario.expected as JsonObject;
  const states = isJsonObject(expected.states) ? expected.states : {};
  const parsed = outcomeSchema.safeParse(states[`${scenario.id}:a`]);
  const observations = Array.isArray(expected.observations) ? expected.observations.filter(isJsonObject) : [];
  const shape = shapeOf(scenario.steps);
  const emitted = scenario.steps.find((s) => s.op === 'emit');
  const plan: LifecyclePlan = {
    id: scenario.id,
    shape,
    payload: {
      tool: {
        name: tool.name ?? 'task',
        input: tool.input ?? {},
        ...(typeof tool.kind === 'string' ? { kind: tool.kind } : {}),
      },
    },
    capabilities: isJsonObject(params.capabilities) ? params.capabilities : { effects: [] },
    response,
    observers: observations.map((o) => String(o.subscription)),
    observed: observations.map((o) => o.input ?? null),
    rule: RULE_OF[shape],
  };
  if (parsed.success) plan.state = parsed.data;
  if (emitted !== undefined && isJsonObject(emitted.response as JsonValue)) {
    plan.unsolicited = emitted.response as JsonObject;
  }
  return plan;
}

/** Only stdio carries a second frame after the reply, or one before it, on one exchange. */
export function planTransports(plan: LifecyclePlan): HarnessTransport[] {
  return plan.shape === 'duplicate' || plan.shape === 'after-unsolicited'
    ? ['stdio-persistent', 'stdio-per_event']
    : ['http', 'stdio-persistent', 'stdio-per_event'];
}

/** What the mock answers the request with. */
export function lifecycleReply(plan: LifecyclePlan, heldMs: number): Behaviour {
  const reply = replyBehaviour(plan.response, plan.response.id ?? null);
  const chunks = reply.kind === 'raw' ? reply.chunks : [];
  if (plan.shape === 'duplicate') return { kind: 'raw', chunks: [...chunks, ...chunks] };
  if (plan.shape === 'after-unsolicited' && plan.unsolicited !== undefined) {
    return { kind: 'raw', chunks: [{ text: `${JSON.stringify(plan.unsolicited)}\n` }, ...chunks] };
  }
  if (plan.shape === 'after-cancel') return { kind: 'delay', ms: heldMs, then: reply };
  return reply;
}

export function lifecycleBackends(plan: LifecyclePlan, timeoutMs: number, heldMs: number): SetBackend[] {
  return [
    {
      subscriptions: [{ mode: 'intercept', policy: 'fail-closed', timeoutMs }],
      replies: [lifecycleReply(plan, heldMs)],
    },
    ...plan.observers.map((content) => ({
      subscriptions: [{ mode: 'observe' as const, content: { default: content } }],
      replies: [],
    })),
  ];
}

/** The findings about the observers: one hooks/observe each, carrying the scenario's input. */
export function observerFindings(
  plan: LifecyclePlan,
  received: readonly (JsonValue | undefined)[][],
): Finding[] {
  return plan.observers.flatMap((content, i) => {
    const got = received[i] ?? [];
    if (got.length !== 1) {
      return [
        finding(
          'observe.delivered',
          `the ${content} observer received ${got.length} hooks/observe; the scenario has 1`,
        ),
      ];
    }
    const want = plan.observed[i];
    return isDeepStrictEqual(got[0], want)
      ? []
      : [
          finding(
            'observe.delivered',
            `the ${content} observer's hooks/observe carried the input ${JSON.stringify(got[0] ?? null)}; the scenario has ${JSON.stringify(want)}`,
          ),
        ];
  });
}

/** A cancelled call: reported interrupted, with nothing of the late reply published. */
export function cancelledFindings(
  plan: Pick<LifecyclePlan, 'rule'>,
  result: Pick<InvokeResult, 'interrupted' | 'messages' | 'result'>,
): Finding[] {
  const out: Finding[] = [];
  if (!result.interrupted) {
    out.push(finding(plan.rule, 'the driver did not report the cancelled call interrupted'));
  }
  const published = [
    ...((result.messages ?? []).length > 0 ? [`messages ${JSON.stringify(result.messages)}`] : []),
    ...(result.result !== undefined ? [`the supplied result ${JSON.stringify(result.result)}`] : []),
  ];
  if (published.length > 0) {
    out.push(
      finding(
        plan.rule,
        `the cancelled call published ${published.join(' and ')}; the scenario publishes nothing`,
      ),
    );
  }
  return out;
}

export async function runLifecycle(
  state: FixtureState,
  plan: LifecyclePlan,
  ctx: CaseContext,
): Promise<void> {
  const { info, margins } = state;
  if (info.features.advertise !== true) {
    ctx.untested(
      "the driver does not announce features.advertise, so the scenario's capabilities cannot be handed to the harness",
    );
  }
  const transport = planTransports(plan).find((t) => announcedTransports(info).includes(t));
  if (transport === undefined) {
    ctx.untested(
      `the scenario needs one of ${planTransports(plan).join(', ')}, which the driver does not announce`,
    );
  }
  const event = scenarioEvent(plan.payload, state.prefix, ++state.counter);
  const steps = new CaseSteps([stepIds(event)], issuedBySuite(state.prefix));
  // A cancelled call's reply is released well after the cancel, inside the subscription's deadline.
  const heldMs = margins.chainCancelAfterMs + margins.settleToleranceMs;
  const set = await startBackendSet(
    transport,
    lifecycleBackends(plan, margins.answerDeadlineMs, heldMs),
    steps,
  );
  state.configured = undefined;
  try {
    const registration = set.registration();
    ctx.evidence({ transport, registration });
    const configured = await configureHarness(state, { registration }, ctx);
    if (!configured.accepted) throw new CaseFailure([refusedValidRegistration(configured.issues)]);
    const params: JsonObject = { event: event as JsonObject, capabilities: plan.capabilities };
    if (plan.shape === 'after-cancel') params.cancelAfterMs = margins.chainCancelAfterMs;
    set.begin(0);
    const result = await state.client.invoke(params as InvokeParams).catch((error: unknown) => {
      const refused = refusedCapabilities(error);
      if (refused !== undefined) ctx.untested(refused);
      throw error;
    });
    steps.addId(0, result.eventId);
    ctx.evidence({ invoke: params, result: result as unknown as JsonValue });
    await Promise.all(
      plan.observers.map((_, i) =>
        set.waitFor(i + 1, 0, 'hooks/observe', 1, margins.deliveryWaitMs, margins.settleToleranceMs),
      ),
    );
    // A late or duplicate frame must change nothing: give it time to arrive before judging.
    await new Promise((resolve) =>
      setTimeout(resolve, plan.shape === 'after-cancel' ? heldMs : margins.strayFrameWaitMs),
    );
    const received = plan.observers.map((_, i) =>
      set.callAt(i + 1, 0).notifications.map((f) => {
        const sent = frameParams(f.frame)?.event;
        return isJsonObject(sent) && isJsonObject(sent.tool) ? sent.tool.input : undefined;
      }),
    );
    const findings = observerFindings(plan, received);
    const untested: string[] = [];
    if (plan.state !== undefined) {
      const features = {
        outcomes: info.features.outcomes === true,
        execution: info.features.execution === true,
        hostPermission: info.features.hostPermission === true,
      };
      const verdict = compareOutcome(plan.state, { result, features }, plan.rule);
      findings.push(...verdict.findings);
      untested.push(...verdict.untested);
    } else {
      findings.push(...cancelledFindings(plan, result));
    }
    if (findings.length > 0) throw new CaseFailure(findings);
    if (untested.length > 0) ctx.untested(untested.join('; '));
  } finally {
    await set.close();
  }
}
