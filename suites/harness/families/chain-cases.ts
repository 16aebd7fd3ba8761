/**
 * Cases with several backends in one registration (AHP-COMP-001, the mode column of
 * AHP-REG-002): each backend is a mock of its own (kit/backend-set.ts), so its recordings say
 * what reached it and when. A case is data: the backends' subscriptions, what each answers, and
 * what each must have received. It runs over one transport, the cheapest the driver announces
 * (composition and dispatch do not depend on it).
 */
import { isJsonObject, type JsonValue } from '../../../protocol/json.js';
import type { Behaviour } from '../../../mock-backend/index.js';
import type { CaseContext } from '../../common/case.js';
import type { InvokeParams, KnownFeature } from '../../driver/index.js';
import { startBackendSet, type BackendCall, type SetSubscription } from '../kit/backend-set.js';
import { driverCase } from '../kit/define.js';
import { configureHarness } from '../kit/lane-driver.js';
import { announcedTransports, anyTransport } from '../kit/features.js';
import type { FixtureState, HarnessFixture } from '../kit/fixture.js';
import { frameLines } from '../kit/case-guard.js';
import { CaseFailure } from '../../common/finding.js';
import { refusedValidRegistration } from '../kit/run-case.js';
import { caseEvent, stepIds } from '../kit/run-step.js';
import { CaseSteps, issuedBySuite } from '../kit/step-identity.js';
import type { HarnessTransport, ScaledHarnessMargins } from '../kit/timing.js';
import { bytesText } from '../kit/wire-records.js';
import { chainProblems, type ChainExpectation } from './chain-judge.js';

/** HTTP mocks live in the suite's process; stdio ones cost a process per backend. */
const TRANSPORT_PREFERENCE: readonly HarnessTransport[] = ['http', 'stdio-persistent', 'stdio-per_event'];

/** One backend of a chain case: its subscriptions in order, and its reply to the judged call. */
export interface ChainBackendSpec {
  subscriptions: ('fail-open' | 'fail-closed' | 'observe')[];
  /** Default `[]` at once. */
  reply?: Behaviour | ((margins: ScaledHarnessMargins) => Behaviour);
}

/** A case with several backends. Its name is path-like and starts with its first requirement. */
export interface ChainCaseSpec {
  name: string;
  requirements: string[];
  /** Driver features beyond a transport (e.g. `observe`, `cancel`). */
  needs?: KnownFeature[];
  backends: ChainBackendSpec[];
  /** Cancel the judged call after `chainCancelAfterMs` (needs `cancel`). */
  cancel?: boolean;
  /**
   * Read on a first call that every backend answers with `[]`: the capabilities the harness
   * advertised to the first backend. Returns why the case cannot be judged, or undefined.
   */
  precondition?: (capabilities: JsonValue | undefined) => string | undefined;
  expect: ChainExpectation;
}

/** The transport a chain case runs over, or undefined when the driver announces none. */
export function chainTransport(announced: readonly HarnessTransport[]): HarnessTransport | undefined {
  return TRANSPORT_PREFERENCE.find((t) => announced.includes(t));
}

function subscriptionsOf(spec: ChainBackendSpec, margins: ScaledHarnessMargins): SetSubscription[] {
  return spec.subscriptions.map((s) =>
    s === 'observe'
      ? { mode: 'observe' }
      : { mode: 'intercept', policy: s, timeoutMs: margins.answerDeadlineMs },
  );
}

function replyOf(spec: ChainBackendSpec, margins: ScaledHarnessMargins): Behaviour {
  const reply = spec.reply ?? { kind: 'respond' };
  return typeof reply === 'function' ? reply(margins) : reply;
}

/** `params.capabilities` of a recorded request, as sent. */
function capabilitiesOf(bytes: Parameters<typeof bytesText>[0]): JsonValue | undefined {
  try {
    const message = JSON.parse(bytesText(bytes)) as JsonValue;
    return isJsonObject(message) && isJsonObject(message.params) ? message.params.capabilities : undefined;
  } catch {
    return undefined;
  }
}

function evidenceOf(ids: readonly string[], calls: readonly BackendCall[]): JsonValue {
  const start = Math.min(...calls.flatMap((c) => c.requests.map((r) => r.arrivedAtWallMs)));
  const at = (ms: number | undefined) => (ms === undefined ? null : Math.round((ms - start) * 10) / 10);
  return calls.map((c, i) => ({
    backendId: ids[i] as string,
    requests: c.requests.map((r) => ({
      arrivedAtMs: at(r.arrivedAtWallMs),
      repliedAtMs: at(r.repliedAtWallMs),
    })),
    notifications: c.notifications.length,
    frames: frameLines([...c.requests, ...c.notifications].map((f) => f.frame)),
  }));
}

async function runChainCase(state: FixtureState, spec: ChainCaseSpec, ctx: CaseContext): Promise<void> {
  // Declared with Needs.transport 'any': the driver announces at least one.
  const transport = chainTransport(announcedTransports(state.info)) ?? anyTransport(state.info);
  const { margins } = state;
  const probe = spec.precondition ? caseEvent(state, ++state.counter) : undefined;
  const event = caseEvent(state, ++state.counter);
  // The probe, when there is one, is step 0; the call judged is the last step.
  const events = probe ? [probe, event] : [event];
  const judged = events.length - 1;
  const steps = new CaseSteps(events.map(stepIds), issuedBySuite(state.prefix));
  const set = await startBackendSet(
    transport,
    spec.backends.map((b) => ({
      subscriptions: subscriptionsOf(b, margins),
      replies: events.map((e) => (e === event ? replyOf(b, margins) : undefined)),
    })),
    steps,
  );
  // The registration names mocks of this case only: no later case may keep this harness.
  state.configured = undefined;
  try {
    const registration = set.registration();
    ctx.evidence({ transport, registration });
    const configured = await configureHarness(state, { registration }, ctx);
    if (!configured.accepted) throw new CaseFailure([refusedValidRegistration(configured.issues)]);
    if (probe && spec.precondition) {
      set.begin(0);
      steps.addId(0, (await state.client.invoke({ event: probe })).eventId);
      await set.waitFor(0, 0, 'hooks/intercept', 1, margins.deliveryWaitMs);
      const first = set.callAt(0, 0).requests[0];
      const capabilities = first ? capabilitiesOf(first.frame.bytes) : undefined;
      ctx.evidence({ advertised: capabilities ?? null });
      const unmet = spec.precondition(capabilities);
      if (unmet !== undefined) ctx.untested(unmet);
    }
    const params: InvokeParams = { event };
    if (spec.cancel) params.cancelAfterMs = margins.chainCancelAfterMs;
    set.begin(judged);
    const result = await state.client.invoke(params);
    steps.addId(judged, result.eventId);
    ctx.evidence({ result: result as unknown as JsonValue });
    const { expect } = spec;
    await Promise.all(
      set.ids.flatMap((_, i) => [
        set.waitFor(i, judged, 'hooks/intercept', expect.asked[i] ?? 0, margins.deliveryWaitMs),
        set.waitFor(i, judged, 'hooks/observe', expect.observed?.[i] ?? 0, margins.deliveryWaitMs),
      ]),
    );
    if (transport !== 'http') await new Promise((resolve) => setTimeout(resolve, margins.strayFrameWaitMs));
    const calls = set.ids.map((_, i) => set.callAt(i, judged));
    ctx.evidence({ backends: evidenceOf(set.ids, calls) });
    const problems = chainProblems(expect, result, calls, margins.serialSlackMs);
    if (problems.length > 0) throw new CaseFailure(problems);
  } finally {
    await set.close();
  }
}

/** Declares each chain case (hand-written: it drives the fixture's first lane itself). */
export function declareChainCases(fixture: HarnessFixture, specs: readonly ChainCaseSpec[]): void {
  for (const spec of specs) {
    const needs = new Set<KnownFeature>(spec.needs ?? []);
    if (spec.cancel) needs.add('cancel');
    driverCase(
      fixture,
      { name: spec.name, requirements: spec.requirements, transports: [...TRANSPORT_PREFERENCE] },
      { transport: 'any', features: [...needs] },
      (ctx, state) => runChainCase(state, spec, ctx),
    );
  }
}
