/**
 * Runs one scenario of `scenarios.json` through the driver: the prefix interceptors and the
 * scenario's backend as a backend set (a mock each, kit/backend-set.ts), registered fail-closed
 * in that order, one `invoke` raising the scenario's event, then the verdict of compare.ts on
 * the driver's answer and each backend's recorded request.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../protocol/json.js';
import type { CaseContext } from '../common/case.js';
import { CaseFailure } from '../common/finding.js';
import type { InvokeParams } from '../driver/index.js';
import { startBackendSet, type SetBackend } from '../harness/kit/backend-set.js';
import { frameParams } from '../harness/kit/advertised-authority.js';
import { announcedTransports, anyTransport } from '../harness/kit/features.js';
import type { FixtureState } from '../harness/kit/fixture.js';
import { configureHarness } from '../harness/kit/lane-driver.js';
import { refusedValidRegistration } from '../harness/kit/run-case.js';
import { stepIds } from '../harness/kit/run-step.js';
import { CaseSteps, issuedBySuite } from '../harness/kit/step-identity.js';
import type { HarnessTransport } from '../harness/kit/timing.js';
import { judgeScenario, type InteropObservation } from './compare.js';
import { refusedCapabilities } from './refused-capabilities.js';
import type { InteropPlan } from './translate.js';
import { scenarioEvent } from './event-identity.js';

/** HTTP mocks live in the suite's process; stdio ones cost a process per backend. */
const TRANSPORTS: readonly HarnessTransport[] = ['http', 'stdio-persistent', 'stdio-per_event'];

/** The backends: each prefix answering its one effect, then the scenario's backend. */
export function scenarioBackends(plan: InteropPlan, timeoutMs: number): SetBackend[] {
  const subscription = {
    mode: 'intercept' as const,
    policy: 'fail-closed' as const,
    timeoutMs,
    events: [plan.eventType],
  };
  return [
    ...plan.prefixes.map((p) => ({
      subscriptions: [subscription],
      replies: [{ kind: 'respond' as const, effects: [p.effect] }],
    })),
    { subscriptions: [subscription], replies: [plan.reply] },
  ];
}

export async function runScenario(state: FixtureState, plan: InteropPlan, ctx: CaseContext): Promise<void> {
  const { info, margins } = state;
  const transport = TRANSPORTS.find((t) => announcedTransports(info).includes(t)) ?? anyTransport(info);
  const event = scenarioEvent(plan.payload, state.prefix, ++state.counter, plan.eventType);
  const steps = new CaseSteps([stepIds(event)], issuedBySuite(state.prefix));
  const set = await startBackendSet(transport, scenarioBackends(plan, margins.answerDeadlineMs), steps);
  // The registration names mocks of this case only: no later case may keep this harness.
  state.configured = undefined;
  try {
    const registration = set.registration();
    ctx.evidence({ transport, registration, prefixes: plan.prefixes.map((p) => p.effect) });
    const configured = await configureHarness(state, { registration }, ctx);
    if (!configured.accepted) throw new CaseFailure([refusedValidRegistration(configured.issues)]);
    const params: JsonObject = { event: event as JsonObject };
    if (plan.hostPermission !== undefined) params.hostPermission = plan.hostPermission;
    const advertise = info.features.advertise === true;
    if (advertise) params.capabilities = plan.capabilities;
    set.begin(0);
    const result = await state.client.invoke(params as InvokeParams).catch((error: unknown) => {
      const refused = advertise ? refusedCapabilities(error) : undefined;
      if (refused !== undefined) ctx.untested(refused);
      throw error;
    });
    steps.addId(0, result.eventId);
    ctx.evidence({ invoke: params, result: result as unknown as JsonValue });
    const last = plan.prefixes.length;
    // The driver answers once the call settled: every request was sent, so each wait ends once
    // its backend's wire is quiet.
    await Promise.all(
      set.ids.map((_, i) =>
        set.waitFor(
          i,
          0,
          'hooks/intercept',
          i < last || plan.asked ? 1 : 0,
          margins.deliveryWaitMs,
          margins.settleToleranceMs,
        ),
      ),
    );
    if (transport !== 'http') await new Promise((resolve) => setTimeout(resolve, margins.strayFrameWaitMs));
    const paramsOf = (i: number) => {
      const frame = set.callAt(i, 0).requests[0]?.frame;
      return frame === undefined ? undefined : frameParams(frame);
    };
    const observation: InteropObservation = {
      result,
      features: {
        outcomes: info.features.outcomes === true,
        execution: info.features.execution === true,
        hostPermission: info.features.hostPermission === true,
      },
      backendId: set.ids[last] as string,
      request: paramsOf(last),
      prefixRequests: plan.prefixes.map((_, i) => paramsOf(i)),
    };
    ctx.evidence({
      received: set.ids.map((id, i) => ({ backendId: id, params: paramsOf(i) ?? null })),
      ...(isJsonObject(observation.request?.state) ? { sentState: observation.request.state } : {}),
    });
    const verdict = judgeScenario(plan, observation);
    if (verdict.notes.length > 0) ctx.evidence({ notes: verdict.notes });
    if (verdict.findings.length > 0) throw new CaseFailure(verdict.findings);
    if (verdict.untested.length > 0) ctx.untested(verdict.untested.join('; '));
  } finally {
    await set.close();
  }
}
