/**
 * The mock scenario of a case: the case's extra rules first, the observe rule, one rule per step
 * matched on the step's identity (its suggested event id and call id, in whichever identity field
 * the frame carries them, kit/step-identity.ts), and last a rule for an intercept request that
 * identifies with no step: it gets the behaviour of the step in progress, which the case sets again
 * (keeping the mock's state) as each step begins. `identifiedRules` is the same for every family
 * that scripts replies per call. Pure.
 */
import type { Behaviour, Match, Rule, Scenario } from '../../../mock-backend/index.js';
import type { CaseStep, HarnessCase } from './case-model.js';

/** Inputs of a case's scenario that are only known at run time. */
export interface ScenarioInputs {
  /** The identities of each step, in order: its suggested event id, and its call id if it has one. */
  stepIds: readonly (readonly string[])[];
  /** The step in progress (default 0), whose behaviour an unidentified intercept request gets. */
  current?: number;
  timeoutMs: number;
  lateByMs: number;
  /** How long after the deadline a `late: 'just'` reply leaves (the scaled `justLateByMs`). */
  justLateByMs: number;
  /** The settle tolerance a `late: 'past-tolerance'` reply is held past as well (the scaled `settleToleranceMs`). */
  settleToleranceMs: number;
  /** The bearer token the mock requires on every HTTP request of an auth case. */
  token: string;
}

/** How long past the deadline a late step's reply is held. */
function lateHoldMs(late: NonNullable<CaseStep['late']>, inputs: ScenarioInputs): number {
  if (late === 'just') return inputs.justLateByMs;
  if (late === 'past-tolerance') return inputs.settleToleranceMs + inputs.lateByMs;
  return inputs.lateByMs;
}

function stepBehaviour(step: CaseStep, inputs: ScenarioInputs): Behaviour {
  return step.late
    ? { kind: 'delay' as const, ms: inputs.timeoutMs + lateHoldMs(step.late, inputs), then: step.behaviour }
    : step.behaviour;
}

/** One scripted reply of a step's intercept requests (several with `times` answer in turn). */
export interface StepReply {
  name: string;
  behaviour: Behaviour;
  times?: number;
}

function replyRule(reply: StepReply, match: Match, suffix = ''): Rule {
  const rule: Rule = { name: `${reply.name}${suffix}`, match, behaviour: reply.behaviour };
  if (reply.times !== undefined) rule.times = reply.times;
  return rule;
}

/**
 * The rules answering the intercept requests of a case's steps: step i's replies for a request
 * that identifies as step i (any identity field, kit/step-identity.ts), then the replies of the
 * step in progress (`current`) for a request that identifies with no step. A case of several
 * steps sets them again as each step begins, keeping the mock's state: the rules before the last
 * group keep their places, so their counts stay theirs.
 */
export function identifiedRules(
  stepIds: readonly (readonly string[])[],
  replies: readonly (readonly StepReply[])[],
  current = 0,
): Rule[] {
  const rules: Rule[] = [];
  replies.forEach((stepReplies, i) => {
    const identity = [...(stepIds[i] ?? [])];
    for (const reply of stepReplies) rules.push(replyRule(reply, { method: 'hooks/intercept', identity }));
  });
  for (const reply of replies[current] ?? []) {
    rules.push(replyRule(reply, { method: 'hooks/intercept' }, ' (the step in progress)'));
  }
  return rules;
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
  const replies = steps.map((step, i) => [{ name: `step ${i + 1}`, behaviour: stepBehaviour(step, inputs) }]);
  rules.push(...identifiedRules(inputs.stepIds, replies, inputs.current ?? 0));
  const scenario: Scenario = { name: testCase.name, rules };
  if (testCase.mock?.process) scenario.process = testCase.mock.process;
  if (testCase.auth === 'token') scenario.http = { requireBearer: { token: inputs.token } };
  return scenario;
}
