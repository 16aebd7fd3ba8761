/**
 * A lifecycle scenario with two calls in turn on one persistent stdio backend, where the backend
 * writes a stale reply to the first call's request id just before its reply to the second: the
 * harness must take each call's own reply (stdio correlates by id), so the stale frame changes
 * nothing. Two driver calls, the second reply written after the first call's request id is known
 * from the mock's record. Pure except `runStaleReply`.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../protocol/json.js';
import type { CaseContext } from '../common/case.js';
import { CaseFailure, type Finding } from '../common/finding.js';
import type { InvokeParams } from '../driver/index.js';
import { startBackendSet } from '../harness/kit/backend-set.js';
import { announcedTransports } from '../harness/kit/features.js';
import type { FixtureState } from '../harness/kit/fixture.js';
import { configureHarness } from '../harness/kit/lane-driver.js';
import { refusedValidRegistration } from '../harness/kit/run-case.js';
import { stepIds } from '../harness/kit/run-step.js';
import { CaseSteps, issuedBySuite } from '../harness/kit/step-identity.js';
import type { Behaviour } from '../../mock-backend/index.js';
import { compareOutcome } from './compare.js';
import { outcomeSchema, type InteropOutcome, type LifecycleScenario } from './format.js';
import { replyBehaviour } from './translate.js';
import { scenarioEvent } from './event-identity.js';

export interface StaleReplyPlan {
  id: string;
  payload: JsonObject;
  capabilities: JsonObject;
  responses: [JsonObject, JsonObject];
  /** The frame written before the second reply, its id to become the first request's. */
  stale: JsonObject;
  states: [InteropOutcome, InteropOutcome];
}

/** The plan of a two-call scenario with an emitted stale reply, or undefined. */
export function staleReplyPlan(scenario: LifecycleScenario): StaleReplyPlan | undefined {
  const ops = scenario.steps.map((s) => s.op);
  const sends = scenario.steps.filter((s) => s.op === 'send').map((s) => String(s.key));
  const emit = scenario.steps.find((s) => s.op === 'emit');
  // Two calls in turn: the first accepted before the second is sent, the stale frame in between.
  if (sends.join() !== 'a,b' || emit === undefined || ops.indexOf('accept') > ops.lastIndexOf('send'))
    return undefined;
  const { a, b } = scenario.responses;
  const request = scenario.requests.a;
  const states = isJsonObject((scenario.expected as JsonObject).states ?? null)
    ? ((scenario.expected as JsonObject).states as JsonObject)
    : {};
  const first = outcomeSchema.safeParse(states[`${scenario.id}:a`]);
  const second = outcomeSchema.safeParse(states[`${scenario.id}:b`]);
  const stale = (emit as { response?: JsonValue }).response;
  if (!isJsonObject(a ?? null) || !isJsonObject(b ?? null) || !isJsonObject(request ?? null))
    return undefined;
  if (!first.success || !second.success || !isJsonObject(stale ?? null)) return undefined;
  const params = isJsonObject((request as JsonObject).params ?? null)
    ? ((request as JsonObject).params as JsonObject)
    : {};
  const event = isJsonObject(params.event ?? null) ? (params.event as JsonObject) : {};
  const tool = isJsonObject(event.tool ?? null) ? (event.tool as JsonObject) : {};
  return {
    id: scenario.id,
    payload: {
      tool: {
        name: tool.name ?? 'task',
        input: tool.input ?? {},
        ...(typeof tool.kind === 'string' ? { kind: tool.kind } : {}),
      },
    },
    capabilities: isJsonObject(params.capabilities ?? null)
      ? (params.capabilities as JsonObject)
      : { effects: [] },
    responses: [a as JsonObject, b as JsonObject],
    stale: stale as JsonObject,
    states: [first.data, second.data],
  };
}

/** The second reply: the stale frame under the first request's id, then the live reply. */
export function staleThenLive(plan: StaleReplyPlan, firstRequestId: JsonValue): Behaviour {
  const live = replyBehaviour(plan.responses[1], plan.responses[1].id ?? null);
  const stale = { ...plan.stale, id: firstRequestId };
  return {
    kind: 'raw',
    chunks: [{ text: `${JSON.stringify(stale)}\n` }, ...(live.kind === 'raw' ? live.chunks : [])],
  };
}

export async function runStaleReply(
  state: FixtureState,
  plan: StaleReplyPlan,
  ctx: CaseContext,
): Promise<void> {
  const { info, margins } = state;
  if (!announcedTransports(info).includes('stdio-persistent')) {
    ctx.untested(
      'the stale reply travels on the process that answered the first call, and the driver does not announce stdio-persistent',
    );
  }
  if (info.features.advertise !== true) {
    ctx.untested(
      "the driver does not announce features.advertise, so the scenario's capabilities cannot be handed to the harness",
    );
  }
  const events = [0, 1].map(() => scenarioEvent(plan.payload, state.prefix, ++state.counter));
  const steps = new CaseSteps(
    events.map((e) => stepIds(e)),
    issuedBySuite(state.prefix),
  );
  const replies: (Behaviour | undefined)[] = [
    replyBehaviour(plan.responses[0], plan.responses[0].id ?? null),
  ];
  const set = await startBackendSet(
    'stdio-persistent',
    [
      {
        subscriptions: [{ mode: 'intercept', policy: 'fail-closed', timeoutMs: margins.answerDeadlineMs }],
        replies,
      },
    ],
    steps,
  );
  state.configured = undefined;
  try {
    const registration = set.registration();
    ctx.evidence({ transport: 'stdio-persistent', registration });
    const configured = await configureHarness(state, { registration }, ctx);
    if (!configured.accepted) throw new CaseFailure([refusedValidRegistration(configured.issues)]);
    const features = {
      outcomes: info.features.outcomes === true,
      execution: info.features.execution === true,
      hostPermission: info.features.hostPermission === true,
    };
    const findings: Finding[] = [];
    const untested: string[] = [];
    for (const k of [0, 1] as const) {
      if (k === 1) {
        const firstId = set.callAt(0, 0).requests[0]?.frame.jsonrpcId;
        if (firstId === undefined)
          ctx.untested('the first call sent no intercept request, so no stale reply can name it');
        replies[1] = staleThenLive(plan, firstId);
      }
      set.begin(k);
      const params = { event: events[k], capabilities: plan.capabilities } as InvokeParams;
      const result = await state.client.invoke(params);
      steps.addId(k, result.eventId);
      ctx.evidence({
        [`call${k + 1}`]: { invoke: params as unknown as JsonValue, result: result as unknown as JsonValue },
      });
      const verdict = compareOutcome(
        plan.states[k],
        { result, features },
        'stdio.correlate-by-id',
        `call ${k + 1}: `,
      );
      findings.push(...verdict.findings);
      untested.push(...verdict.untested);
    }
    if (findings.length > 0) throw new CaseFailure(findings);
    if (untested.length > 0) ctx.untested(untested.join('; '));
  } finally {
    await set.close();
  }
}
