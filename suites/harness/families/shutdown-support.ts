/**
 * What the shutdown cases share: configuring the harness straight through the driver (these cases
 * need steps the kit's case runner does not take: close, a second close, an invoke after close),
 * the liveness of backend PIDs, and the mock's view of one call.
 */
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import type { JsonValue } from '../../../protocol/json.js';
import type { Scenario } from '../../../mock-backend/index.js';
import type { CaseContext } from '../../kit/case.js';
import type { DriverToolEvent } from '../../driver/index.js';
import type { HarnessCase } from '../kit/case-model.js';
import type { FixtureState } from '../kit/fixture.js';
import { caseRegistration } from '../kit/registration.js';
import { caseEvent } from '../kit/run-case.js';
import type { HarnessTransport } from '../kit/timing.js';
import { decodeFrames } from '../kit/wire-records.js';

/** The bound on a whole shutdown, SIGTERM-ignoring backends included (DESIGN.md: 5 s, scaled). */
export const SHUTDOWN_BOUND_MS = 5000;

/** True while a process with this PID exists (signal 0 tests without signalling). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but is not ours to signal; still alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
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
  const answer = await state.client.configure({ registration });
  ctx.evidence({ registration, configure: answer as unknown as JsonValue });
  if (!answer.accepted) {
    throw new Error(
      `the harness refused a valid registration: ${answer.issues.map((i) => i.message).join('; ')}`,
    );
  }
}

/** A fresh `tool.before` for the next call of the file. */
export function nextEvent(state: FixtureState): DriverToolEvent {
  return caseEvent(state, ++state.counter);
}

/** How many intercept requests of the call reached the mock. */
export function requestsOf(state: FixtureState, transport: HarnessTransport, callId: string): number {
  return decodeFrames(mockOf(state, transport).recordings({ type: 'inbound' })).filter(
    (f) => f.callId === callId && f.method === 'hooks/intercept',
  ).length;
}

/** Waits until the call's first request has reached the mock (fails the case if it never does). */
export async function awaitRequest(state: FixtureState, transport: HarnessTransport, callId: string) {
  await mockOf(state, transport).waitForDelivery(() => requestsOf(state, transport, callId) > 0, {
    timeoutMs: state.margins.deliveryWaitMs + state.margins.answerDeadlineMs,
  });
}
