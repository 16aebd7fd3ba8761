/**
 * What the shutdown cases share: configuring the harness straight through the driver (these cases
 * need steps the kit's case runner does not take: close, a second close, an invoke after close),
 * the liveness of backend PIDs, and the mock's view of one call.
 */
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import type { JsonValue } from '../../../protocol/json.js';
import type { Scenario } from '../../../mock-backend/index.js';
import type { CaseContext } from '../../common/case.js';
import type { DriverToolEvent } from '../../driver/index.js';
import type { HarnessCase } from '../kit/case-model.js';
import type { FixtureState } from '../kit/fixture.js';
import { CaseFailure } from '../../common/finding.js';
import { configureHarness } from '../kit/lane-driver.js';
import { caseRegistration } from '../kit/registration.js';
import { caseEvent, refusedValidRegistration } from '../kit/run-case.js';
import { stepIds } from '../kit/run-step.js';
import { CaseSteps, issuedBySuite } from '../kit/step-identity.js';
import type { HarnessTransport } from '../kit/timing.js';
import { decodeFrames, type WireFrame } from '../kit/wire-records.js';
import { processAlive } from '../../../protocol/process-alive.js';

/** The bound on a whole shutdown, SIGTERM-ignoring backends included (5 s, scaled: docs/architecture.md "Decisions"). */
export const SHUTDOWN_BOUND_MS = 5000;

/**
 * How long after `close` completed a backend process killed during it may still be seen dying:
 * a killed process needs a turn on a CPU to exit, and its parent's event loop one more to reap
 * it (a zombie has ended: only its parent's wait is due). A process still running then outlived
 * close; one that ignores SIGTERM and was never killed runs on for as long as anyone watches.
 */
export const REAP_GRACE_MS = 500;

/** How often the liveness of the backends is looked at again while the grace runs. */
const REAP_POLL_MS = 25;

/** The PIDs still running once every one has ended or `graceMs` has passed. */
export async function stillRunningAfter(pids: readonly number[], graceMs: number): Promise<number[]> {
  const started = performance.now();
  let alive = pids.filter(processAlive);
  while (alive.length > 0 && performance.now() - started < graceMs) {
    await new Promise((resolve) => setTimeout(resolve, REAP_POLL_MS));
    alive = alive.filter(processAlive);
  }
  return alive;
}

/** The mock that serves a transport. */
export function mockOf(state: FixtureState, transport: HarnessTransport) {
  return transport === 'http' ? state.mocks.http : state.mocks.control;
}

/** Loads a scenario into the transport's mock and forgets what it recorded before. */
export function loadScenario(state: FixtureState, transport: HarnessTransport, scenario: Scenario): void {
  const mock = mockOf(state, transport);
  mock.setScenario(scenario);
  mock.reset();
}

/** Configures the harness with one backend on `transport`; fails the case if it is refused. */
export async function configureBackend(
  state: FixtureState,
  ctx: CaseContext,
  options: { transport: HarnessTransport; policy: FailurePolicy; timeoutMs: number },
): Promise<void> {
  const registration = caseRegistration(options as HarnessCase, state.mocks.endpoints, options.timeoutMs);
  const answer = await configureHarness(state, { registration }, ctx);
  ctx.evidence({ registration, configure: answer as unknown as JsonValue });
  if (!answer.accepted) throw new CaseFailure([refusedValidRegistration(answer.issues)]);
}

/** A fresh `tool.before` for the next call of the file. */
export function nextEvent(state: FixtureState): DriverToolEvent {
  return caseEvent(state, ++state.counter);
}

/** The calls of a case, attributed as every case's (kit/step-identity.ts). */
export function callSteps(state: FixtureState, events: readonly DriverToolEvent[]): CaseSteps {
  return new CaseSteps(events.map(stepIds), issuedBySuite(state.prefix));
}

/** How many intercept requests of the call (the frames `belongs` picks) reached the mock. */
export function requestsOf(
  state: FixtureState,
  transport: HarnessTransport,
  belongs: (frame: WireFrame) => boolean,
): number {
  return decodeFrames(mockOf(state, transport).recordings({ type: 'inbound' })).filter(
    (f) => f.method === 'hooks/intercept' && belongs(f),
  ).length;
}

/** Waits until the call's first request has reached the mock (fails the case if it never does). */
export async function awaitRequest(
  state: FixtureState,
  transport: HarnessTransport,
  belongs: (frame: WireFrame) => boolean,
) {
  await mockOf(state, transport).waitForDelivery(() => requestsOf(state, transport, belongs) > 0, {
    timeoutMs: state.margins.deliveryWaitMs + state.margins.answerDeadlineMs,
  });
}
