/**
 * The mock scenario of a case: one rule per step keyed by the step's `call.id` (so each call gets
 * its own behaviour whatever event id the harness chose), the observe rule, and the case's extra
 * rules first. Pure.
 */
import type { Behaviour, Rule, Scenario } from '../../../mock-backend/index.js';
import type { HarnessCase } from './case-model.js';
import type { CaseStep } from './case-model.js';

/** Inputs of a case's scenario that are only known at run time. */
export interface ScenarioInputs {
  /** The call id of each step, in order. */
  callIds: readonly string[];
  timeoutMs: number;
  lateByMs: number;
  /** The bearer token the mock requires on every HTTP request of an auth case. */
  token: string;
}

/**
 * A per_event mock whose stdin has ended and that only "hangs" holds no timer or socket, so Node
 * exits 0 at once and the harness sees a missing reply instead of a hang. Holding the hang behind
 * a delay that outlives the deadline keeps the process alive until the harness kills it.
 */
export function keepPerEventHangAlive(
  behaviour: Behaviour,
  testCase: HarnessCase,
  timeoutMs: number,
): Behaviour {
  if (testCase.transport !== 'stdio-per_event' || behaviour.kind !== 'hang') return behaviour;
  return { kind: 'delay', ms: timeoutMs * 4 + PER_EVENT_HANG_EXTRA_MS, then: behaviour };
}

/** How much longer than the deadline a per_event "hang" is held (the harness kills it before). */
const PER_EVENT_HANG_EXTRA_MS = 10_000;

function stepRule(
  testCase: HarnessCase,
  step: CaseStep,
  index: number,
  callId: string,
  inputs: ScenarioInputs,
): Rule {
  const own = keepPerEventHangAlive(step.behaviour, testCase, inputs.timeoutMs);
  const behaviour = step.late
    ? { kind: 'delay' as const, ms: inputs.timeoutMs + inputs.lateByMs, then: own }
    : own;
  return {
    name: `step ${index + 1}`,
    match: { method: 'hooks/intercept', fields: [{ path: 'call.id', equals: callId }] },
    behaviour,
  };
}

/** The scenario loaded into the mock for one case. */
export function caseScenario(testCase: HarnessCase, inputs: ScenarioInputs): Scenario {
  const steps = [testCase, ...(testCase.then ?? [])];
  const rules: Rule[] = [...(testCase.mock?.rules ?? [])];
  if (testCase.observe) {
    rules.push({
      name: 'observe',
      match: { message: 'notification', method: 'hooks/observe' },
      behaviour: testCase.observe.behaviour,
    });
  }
  steps.forEach((step, i) => rules.push(stepRule(testCase, step, i, inputs.callIds[i] as string, inputs)));
  const scenario: Scenario = { name: testCase.name, rules };
  if (testCase.mock?.process) scenario.process = testCase.mock.process;
  if (testCase.auth === 'token') scenario.http = { requireBearer: { token: inputs.token } };
  return scenario;
}
