/**
 * Running a fast-check property against a harness through its driver: the seed and the number of
 * runs come from the suite settings (`--seed`, `--runs`), every run is a real configure + invoke,
 * and a failure carries its replay token (seed, path, the shrunk counterexample as JSON) in the
 * error and the evidence.
 */
import fc from 'fast-check';
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import type { JsonObject, JsonValue } from '../../../protocol/json.js';
import type { Behaviour } from '../../../mock-backend/index.js';
import type { CaseContext } from '../../common/case.js';
import { CaseFailure, type Finding } from '../../common/finding.js';
import type { DriverToolEvent, InitializeResult, InvokeResult, KnownFeature } from '../../driver/index.js';
import type { HarnessCase } from '../kit/case-model.js';
import type { FixtureState } from '../kit/fixture.js';
import { unmetNeeds, usableTransports } from '../kit/features.js';
import { configureHarness } from '../kit/lane-driver.js';
import { caseRegistration, interceptSubscription } from '../kit/registration.js';
import { refusedValidRegistration } from '../kit/run-case.js';
import { finding, prefixed } from '../kit/rules.js';
import { stepIds } from '../kit/run-step.js';
import { identifiedRules } from '../kit/scenario.js';
import type { HarnessTransport } from '../kit/timing.js';
import { decodeFrames, type WireFrame } from '../kit/wire-records.js';
import type { Prediction } from './properties-model.js';
import { callSteps, loadScenario, mockOf, nextEvent } from './shutdown-support.js';

/**
 * The transports a property's runs draw from, among those the driver announces: mostly HTTP (no
 * process to spawn: a run costs tens of ms), one run in ten over stdio-persistent (a spawn per
 * run, hundreds of ms). Per_event (a spawn per delivery) only for a driver that announces neither.
 * A driver that announces none of them leaves the property `untested` with the reason.
 */
export function propertyTransport(
  info: InitializeResult,
  extra: readonly KnownFeature[] = [],
): { arbitrary: fc.Arbitrary<HarnessTransport> } | { untested: string } {
  const lacking = unmetNeeds({ features: extra }, info);
  if (lacking !== undefined) return { untested: lacking };
  const usable = usableTransports(['http', 'stdio-persistent'], info);
  const fallback = 'untested' in usable ? usableTransports(['stdio-per_event'], info) : usable;
  if ('untested' in fallback) return fallback;
  const weight = (t: HarnessTransport) => (t === 'http' ? 9 : 1);
  return {
    arbitrary: fc.oneof(
      ...fallback.transports.map((t) => ({ weight: weight(t), arbitrary: fc.constant(t) })),
    ),
  };
}

/** The property's transports, or ends the case `untested` when the driver announces none. */
export function propertyTransportOrUntested(
  state: FixtureState,
  ctx: CaseContext,
  extra: readonly KnownFeature[] = [],
): fc.Arbitrary<HarnessTransport> {
  const chosen = propertyTransport(state.info, extra);
  if ('untested' in chosen) ctx.untested(chosen.untested);
  return chosen.arbitrary;
}

/** One generated call: the transport, the subscriptions' policies, and the mock's behaviour per delivery. */
export interface CallPlan {
  transport: HarnessTransport;
  policies: FailurePolicy[];
  /** Behaviour of the n-th delivery of the call (the last one repeats). */
  deliveries: Behaviour[];
  retries?: number;
  timeoutMs: number;
}

/** What one run of a call plan produced. */
export interface CallRun {
  event: DriverToolEvent;
  result: InvokeResult;
  requests: WireFrame[];
}

/** Configures a chain of intercept subscriptions (one per policy) on one backend and invokes once. */
export async function runCallPlan(
  state: FixtureState,
  plan: CallPlan,
  expectedDeliveries: number,
): Promise<CallRun> {
  const event = nextEvent(state);
  const steps = callSteps(state, [event]);
  const replies = [[{ name: 'the call', behaviour: { kind: 'sequence' as const, steps: plan.deliveries } }]];
  loadScenario(state, plan.transport, { rules: identifiedRules([stepIds(event)], replies) });
  const base = { transport: plan.transport, policy: 'fail-closed' } as HarnessCase;
  const registration = caseRegistration(base, state.mocks.endpoints, plan.timeoutMs);
  const backend = (registration.hooks as JsonObject[])[0] as JsonObject;
  backend.subscriptions = plan.policies.map((policy) =>
    interceptSubscription({ ...base, policy } as HarnessCase, plan.timeoutMs),
  );
  const configured = await configureHarness(state, {
    registration,
    ...(plan.retries === undefined ? {} : { retries: plan.retries }),
  });
  if (!configured.accepted) throw new CaseFailure([refusedValidRegistration(configured.issues)]);
  steps.begin(0);
  const result = await state.client.invoke({ event });
  steps.addId(0, result.eventId);
  const mock = mockOf(state, plan.transport);
  const ours = steps.of(0);
  const requestsNow = () =>
    decodeFrames(mock.recordings({ type: 'inbound' })).filter(
      (f) => f.method === 'hooks/intercept' && ours(f),
    );
  // Stdio mocks record through the control server, possibly just after the driver answered.
  await mock
    .waitForDelivery(() => requestsNow().length >= expectedDeliveries, {
      timeoutMs: state.margins.deliveryWaitMs,
    })
    .catch(() => undefined);
  return { event, result, requests: requestsNow() };
}

/** Every way a run departs from the model's prediction (decision, synthetic flag, deliveries). */
export function compareWithPrediction(run: CallRun, predicted: Prediction): Finding[] {
  const problems: Finding[] = [];
  const decided = (message: string) =>
    problems.push(
      finding(predicted.rule, message, predicted.way === undefined ? {} : { way: predicted.way }),
    );
  if (run.result.decision !== predicted.decision) {
    decided(`the decision is "${run.result.decision}" where the seed's rules give "${predicted.decision}"`);
  }
  if (run.result.decision === 'deny' && run.result.synthetic !== predicted.synthetic) {
    decided(
      `the denial is ${run.result.synthetic ? 'synthetic' : 'explicit'} where the rules make it ${predicted.synthetic ? 'synthetic' : 'explicit'}`,
    );
  }
  if (run.requests.length !== predicted.deliveries) {
    problems.push(
      finding(
        predicted.deliveriesRule,
        `the mock received ${run.requests.length} request(s) where the rules give ${predicted.deliveries}`,
      ),
    );
  }
  return problems;
}

/** A failed run: its findings, for fast-check to shrink and for the report. */
export class PropertyRunFailure extends Error {
  constructor(readonly findings: Finding[]) {
    super(findings.map((f) => f.message).join('; '));
    this.name = 'PropertyRunFailure';
  }
}

/** Asserts an async property with the suite's seed and runs; throws with the replay token on failure. */
export async function assertProperty<T>(
  state: FixtureState,
  ctx: CaseContext,
  arbitrary: fc.Arbitrary<T>,
  run: (value: T) => Promise<Finding[]>,
): Promise<void> {
  const { seed, runs } = state.settings;
  ctx.evidence({ seed, runs });
  const details = await fc.check(
    fc.asyncProperty(arbitrary, async (value) => {
      const problems = await run(value);
      if (problems.length > 0) throw new PropertyRunFailure(problems);
    }),
    { seed, numRuns: runs, endOnFailure: false },
  );
  if (!details.failed) return;
  const counterexample = details.counterexample?.[0];
  const error = details.errorInstance;
  const replay = { seed: details.seed, path: details.counterexamplePath ?? '', runs: details.numRuns };
  ctx.evidence({
    replay,
    counterexample: JSON.parse(JSON.stringify(counterexample ?? null)) as JsonValue,
  });
  const why = error instanceof Error ? error.message : String(error);
  const token =
    `counterexample: ${fc.stringify(counterexample)}; ` +
    `replay: --seed ${details.seed} (fast-check path ${JSON.stringify(replay.path)})`;
  const found =
    error instanceof PropertyRunFailure || error instanceof CaseFailure ? error.findings : undefined;
  if (found === undefined) {
    throw new Error(`property failed after ${details.numRuns} run(s): ${why}\n${token.replace('; ', '\n')}`);
  }
  const shown = prefixed(found, `property failed after ${details.numRuns} run(s): `);
  throw new CaseFailure(shown.map((f, i) => (i === 0 ? { ...f, message: `${f.message} (${token})` } : f)));
}
