/**
 * The effects cases (effects-case-data.ts) through the driver: a chain of intercepting backends, a
 * mock each (kit/backend-set.ts), answers one call, and the call is judged on the driver's v1.3
 * outcome members and on what each backend received (effects-judge.ts). The call's capabilities go
 * in through `invoke.params.capabilities` when the driver announces `features.advertise`; without
 * it the case runs only when the advertisement the harness sent (as the mock recorded it) offers
 * everything the case answers with, else it is `untested` with the reason.
 */
import { isDeepStrictEqual } from 'node:util';
import { isJsonObject, type JsonValue } from '../../../protocol/json.js';
import type { CaseContext } from '../../common/case.js';
import { CaseFailure } from '../../common/finding.js';
import { DriverCallError, type InvokeResult, type KnownFeature } from '../../driver/index.js';
import { frameParams } from '../kit/advertised-authority.js';
import { startBackendSet, type SetBackend } from '../kit/backend-set.js';
import { driverCase } from '../kit/define.js';
import { usableTransports, type Needs } from '../kit/features.js';
import type { FixtureState, HarnessFixture } from '../kit/fixture.js';
import { configureHarness } from '../kit/lane-driver.js';
import { refusedValidRegistration } from '../kit/run-case.js';
import { stepEvent, stepIds, type StepEvent } from '../kit/run-step.js';
import { CaseSteps, issuedBySuite } from '../kit/step-identity.js';
import type { HarnessTransport } from '../kit/timing.js';
import { EFFECTS_CASES, EFFECTS_INPUT, TOOL_CAPABILITIES, type EffectsCase } from './effects-case-data.js';
import { effectsProblems, type EffectsRun } from './effects-judge.js';

/** Effects do not depend on the transport; a chain costs a process per backend over stdio. */
const EFFECTS_TRANSPORTS: readonly HarnessTransport[] = ['http', 'stdio-persistent', 'stdio-per_event'];

/** The members a case reads that only a driver announcing features.outcomes reports. */
const OUTCOME_MEMBERS = [
  'messages',
  'result',
  'flow',
  'reason',
  'continuationInstructions',
  'continuationRemaining',
  'injections',
] as const;

/** What the case needs of the driver: outcome members, a host permission, its event. */
export function effectsNeeds(c: EffectsCase): Needs {
  const features: KnownFeature[] = [];
  if (OUTCOME_MEMBERS.some((m) => c.expect[m] !== undefined)) features.push('outcomes');
  if (c.expect.permission !== undefined) features.push('hostPermission');
  return { transport: 'any', features, ...(c.event === 'tool.before' ? {} : { event: c.event }) };
}

function callEvent(state: FixtureState, c: EffectsCase): StepEvent {
  const n = ++state.counter;
  if (c.event === 'turn.finish.before') return stepEvent(state, n, 'turn.finish.before');
  return {
    id: `evt-${state.prefix}-${n}`,
    session: { id: `sess-${state.prefix}` },
    call: { id: `call-${state.prefix}-${n}` },
    tool: { name: 'Read', input: structuredClone(EFFECTS_INPUT) },
  };
}

const list = (value: JsonValue | undefined): JsonValue[] => (Array.isArray(value) ? value : []);

/**
 * Why an advertisement the harness chose itself does not serve the case, or undefined when it
 * offers every effect, flow operation and injection delivery the case answers with. A continuation
 * allowance is the case's own data, so a continue case needs it given (features.advertise).
 */
export function unservedBy(c: EffectsCase, advertised: JsonValue | undefined): string | undefined {
  if (c.event === 'turn.finish.before') {
    return 'the case needs its continuation allowance given through invoke capabilities, and the driver does not announce features.advertise';
  }
  if (!isDeepStrictEqual(c.capabilities, TOOL_CAPABILITIES)) {
    return 'the case needs an advertisement of its own (an injection delivery withheld) given through invoke capabilities, and the driver does not announce features.advertise';
  }
  const caps = isJsonObject(advertised) ? advertised : {};
  const effects = list(caps.effects);
  const flow = isJsonObject(caps.flow) ? caps.flow : {};
  const inject = isJsonObject(caps.inject) && isJsonObject(caps.inject.context) ? caps.inject.context : {};
  const lacking = new Set<string>();
  for (const effect of c.links.flatMap((l) => l.effects)) {
    if (!isJsonObject(effect) || typeof effect.type !== 'string') continue;
    if (effect.type === 'modify' && effect.target !== 'input') continue; // the unacceptable member
    if (!effects.includes(effect.type)) lacking.add(effect.type);
    if (effect.type === 'flow' && !list(flow.operations).includes(effect.operation as string)) {
      lacking.add(`flow ${String(effect.operation)}`);
    }
    if (effect.type === 'inject' && !list(inject.deliverAt).includes(effect.deliverAt as string)) {
      lacking.add(`inject at ${String(effect.deliverAt)}`);
    }
  }
  if (lacking.size === 0) return undefined;
  return `the harness did not advertise ${[...lacking].join(', ')} (params.capabilities of the first request), which the case answers with`;
}

function backendsOf(c: EffectsCase, timeoutMs: number): SetBackend[] {
  return c.links.map((link) => ({
    subscriptions: [{ mode: 'intercept', policy: link.policy, timeoutMs, events: [c.event] }],
    replies: [{ kind: 'respond', effects: link.effects }],
  }));
}

/** Configures the chain, raises the call and collects what each backend received of it. */
async function runEffectsCase(ctx: CaseContext, state: FixtureState, c: EffectsCase): Promise<void> {
  const usable = usableTransports(EFFECTS_TRANSPORTS, state.info);
  if ('untested' in usable) ctx.untested(usable.untested);
  const transport = usable.transports[0] as HarnessTransport;
  const advertise = state.info.features.advertise === true;
  const event = callEvent(state, c);
  const steps = new CaseSteps([stepIds(event)], issuedBySuite(state.prefix));
  const { margins } = state;
  const set = await startBackendSet(transport, backendsOf(c, margins.answerDeadlineMs), steps);
  // The registration names mocks of this case only: no later case may keep this harness.
  state.configured = undefined;
  try {
    const registration = set.registration();
    ctx.evidence({ transport, registration });
    const configured = await configureHarness(state, { registration }, ctx);
    if (!configured.accepted) {
      const what = `a valid registration of ${c.links.length} interceptors`;
      throw new CaseFailure([refusedValidRegistration(configured.issues, what)]);
    }
    set.begin(0);
    let answer: InvokeResult;
    try {
      answer = await state.client.invoke(advertise ? { event, capabilities: c.capabilities } : { event });
    } catch (error) {
      // A driver whose harness cannot enforce the call's capabilities refuses them (-32602).
      if (error instanceof DriverCallError && error.rpcCode === -32602) {
        ctx.untested(`the driver refused the call's capabilities: ${error.rpcMessage}`);
      }
      throw error;
    }
    steps.addId(0, answer.eventId);
    ctx.evidence({ answer: answer as unknown as JsonValue });
    const { deliveryWaitMs, settleToleranceMs } = margins;
    // The driver answers once the call settled, so every request was sent: each wait ends once its
    // backend holds what it must, or its wire is quiet.
    await Promise.all(
      c.links.map(async (_, i) => {
        await set.waitFor(
          i,
          0,
          'hooks/intercept',
          i < c.expect.asked ? 1 : 0,
          deliveryWaitMs,
          settleToleranceMs,
        );
        const copy = c.expect.boundaryCopies?.includes(i) === true ? 1 : 0;
        await set.waitFor(i, 0, 'hooks/observe', copy, deliveryWaitMs, settleToleranceMs);
      }),
    );
    // A stdio backend's frames reach its control server on their own: give a stray one its moment.
    if (transport !== 'http') await new Promise((resolve) => setTimeout(resolve, margins.strayFrameWaitMs));
    const run: EffectsRun = {
      answer,
      requests: c.links.map((_, i) => set.callAt(i, 0).requests.map((r) => r.frame)),
      notifications: c.links.map((_, i) => set.callAt(i, 0).notifications.map((r) => r.frame)),
    };
    ctx.evidence({ sentStates: run.requests.map((r) => (r[0] ? (frameParams(r[0])?.state ?? null) : null)) });
    if (!advertise) {
      const first = run.requests[0]?.[0];
      const unserved = unservedBy(c, first === undefined ? undefined : frameParams(first)?.capabilities);
      if (unserved !== undefined) ctx.untested(unserved);
    }
    const problems = effectsProblems(c, run);
    if (problems.length > 0) throw new CaseFailure(problems);
  } finally {
    await set.close();
  }
}

/** Declares the effects cases, each named by its first requirement and its label. */
export function declareEffectsCases(fixture: HarnessFixture): void {
  for (const c of EFFECTS_CASES) {
    const [id] = c.requirements as [string];
    driverCase(
      fixture,
      { name: `${id}/effects/${c.label}`, requirements: c.requirements, transports: [...EFFECTS_TRANSPORTS] },
      effectsNeeds(c),
      (ctx, state) => runEffectsCase(ctx, state, c),
    );
  }
}
