/**
 * The registration scenarios of `catalogue-scenarios.json`: each registration document goes to
 * the harness through the driver's `configure`, and the answer (accepted or refused) is compared
 * with the scenario's. What `configure` cannot carry is either translated (a credential the
 * scenario's environment holds becomes the variable the driver's environment holds; one it lacks
 * a variable no environment sets) or makes the case untested (enforcement requirements and a
 * non-interactive host). Where the draft allows either answer, both are accepted and the evidence
 * says which was given and why it stands.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../protocol/json.js';
import type { CaseContext } from '../common/case.js';
import { CaseFailure } from '../common/finding.js';
import type { FixtureState } from '../harness/kit/fixture.js';
import { configureHarness } from '../harness/kit/lane-driver.js';
import { MISSING_TOKEN_ENV, TOKEN_ENV } from '../harness/kit/registration.js';
import { finding, type RuleKey } from '../harness/kit/rules.js';
import type { CatalogueScenario } from './format.js';

/** A registration scenario ready to run. */
export interface RegistrationPlan {
  id: string;
  requirements: string[];
  registration: JsonObject;
  expected: boolean;
  /** Why the other answer stands as well, when the draft allows it. */
  eitherBecause?: string;
  /** Why the expected answer is the draft's rather than the scenario's, where they part. */
  draftBecause?: string;
  /** Why the scenario cannot be shown through `configure`. */
  inexpressible?: string;
  /** The driver feature the registration needs (observe subscriptions). */
  needsObserve: boolean;
  /** The rule a wrong answer breaks. */
  rule: RuleKey;
}

/**
 * Our requirement and the rule of a wrong answer, per scenario: the specific registration rules
 * of the harness cases (suites/harness/kit/rules-families.ts). An accepted scenario not listed
 * rests on AHP-REG-001 and `registration.valid-accepted`; a refused one not listed is untested,
 * since no rule of ours says why it is refused.
 */
const REGISTRATION_REQUIREMENTS: Readonly<Record<string, { requirement: string; rule: RuleKey }>> = {
  'registration-duplicate-backend': { requirement: 'AHP-REG-001', rule: 'registration.backend-id-unique' },
  'registration-observe-only-interception': {
    requirement: 'AHP-REG-001',
    rule: 'registration.intercept-interceptable-only',
  },
  'registration-unenforceable-managed-scope': {
    requirement: 'AHP-REG-001',
    rule: 'registration.managed-scope-served',
  },
  'registration-unsupported-event': { requirement: 'AHP-REG-002', rule: 'dispatch.selector' },
  'registration-explicit-failure-policy-required': {
    requirement: 'AHPX-FAIL-003',
    rule: 'registration.explicit-policy',
  },
  'registration-observe-policy-forbidden': {
    requirement: 'AHPX-FAIL-006',
    rule: 'registration.observe-no-policy',
  },
  'registration-resolved-credential': { requirement: 'AHP-AUTH-001', rule: 'registration.valid-accepted' },
  'registration-missing-credential': { requirement: 'AHPX-FAIL-004', rule: 'auth.failure-follows-policy' },
  'registration-unenforceable-ask': { requirement: 'AHP-CAP-001', rule: 'host.ask-enforced' },
  'registration-supported-modify': { requirement: 'AHP-CAP-001', rule: 'registration.valid-accepted' },
  'registration-unsupported-modify-target': {
    requirement: 'AHP-CAP-001',
    rule: 'event.capabilities-enforceable',
  },
};

/**
 * Scenarios whose other answer the draft allows as well, and why (docs/harness-authors.md, the
 * registrations the interop scenarios refuse).
 */
const EITHER_ANSWER: Readonly<Record<string, string>> = {
  'registration-unsupported-event':
    'nothing is required of an exact event name the harness does not raise (base/registration.md, AHP-REG-002), so it may refuse the observe subscription or accept it and never dispatch it',
  'registration-unenforceable-managed-scope':
    'a harness refuses a managed scope it cannot enforce (capability-auth.md, Registration); one that enforces managed, non-disableable scopes may accept it',
};

/**
 * Scenarios whose answer the draft decides otherwise than the scenario, and why: the draft wins.
 * An unset credential variable is an authentication failure at dispatch, under the configured
 * policy (base/failure.md, AHP-FAIL-001; capability-auth.md, Failure and timing), not grounds to
 * refuse the registration.
 */
const DRAFT_ANSWER: Readonly<Record<string, { accepted: boolean; because: string }>> = {
  'registration-missing-credential': {
    accepted: true,
    because:
      'the scenario refuses it, but by the draft an unset credential variable is an authentication failure at dispatch under the configured policy (AHPX-FAIL-004), so the registration is accepted',
  },
};

/** Replaces every `tokenEnv` of the document with `variable`. */
function withTokenEnv(value: JsonValue, variable: string): JsonValue {
  if (Array.isArray(value)) return value.map((v) => withTokenEnv(v, variable));
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value))
    out[k] = k === 'tokenEnv' ? variable : withTokenEnv(v, variable);
  return out;
}

function usesTokenEnv(value: JsonValue): string[] {
  if (Array.isArray(value)) return value.flatMap(usesTokenEnv);
  if (!isJsonObject(value)) return [];
  return Object.entries(value).flatMap(([k, v]) =>
    k === 'tokenEnv' && typeof v === 'string' ? [v] : usesTokenEnv(v),
  );
}

/** The plan of a registration scenario, or undefined for any other category. */
export function registrationPlan(scenario: CatalogueScenario): RegistrationPlan | undefined {
  if (scenario.category !== 'registration') return undefined;
  const step = scenario.steps[0];
  const answer = scenario.expected.registrations?.[0];
  if (step === undefined || step.op !== 'register' || answer === undefined || scenario.steps.length !== 1) {
    return undefined;
  }
  const known = REGISTRATION_REQUIREMENTS[scenario.id];
  const register = step as Extract<CatalogueScenario['steps'][number], { op: 'register' }>;
  const environment = isJsonObject(register.context.environment as JsonValue)
    ? (register.context.environment as JsonObject)
    : {};
  // The driver's environment holds TOKEN_ENV and never MISSING_TOKEN_ENV.
  const variables = usesTokenEnv(register.registration as JsonObject);
  const resolved = variables.every((v) => typeof environment[v] === 'string');
  const registration =
    variables.length === 0
      ? (register.registration as JsonObject)
      : (withTokenEnv(
          register.registration as JsonObject,
          resolved ? TOKEN_ENV : MISSING_TOKEN_ENV,
        ) as JsonObject);
  const plan: RegistrationPlan = {
    id: scenario.id,
    requirements: [known?.requirement ?? 'AHP-REG-001'],
    registration,
    expected: DRAFT_ANSWER[scenario.id]?.accepted ?? answer.accepted,
    needsObserve: JSON.stringify(registration).includes('"mode":"observe"'),
    rule: known?.rule ?? 'registration.valid-accepted',
  };
  const either = EITHER_ANSWER[scenario.id];
  if (either !== undefined) plan.eitherBecause = either;
  const draft = DRAFT_ANSWER[scenario.id];
  if (draft !== undefined) plan.draftBecause = draft.because;
  if (known === undefined && !plan.expected) {
    plan.inexpressible = 'no registration rule of ours says why the scenario refuses this document';
  } else if (register.requirements.length > 0) {
    plan.inexpressible = `the scenario asks the harness to enforce ${JSON.stringify(register.requirements)}${register.context.interactive === false ? ' without an interactive user' : ''}, which configure cannot carry (it takes the registration only)`;
  } else if (register.context.interactive === false) {
    plan.inexpressible =
      'the scenario runs on a host without an interactive user, which configure cannot say';
  }
  return plan;
}

/** Configures the harness with the scenario's registration and compares the answer. */
export async function runRegistration(
  state: FixtureState,
  plan: RegistrationPlan,
  ctx: CaseContext,
): Promise<void> {
  if (plan.inexpressible !== undefined) ctx.untested(plan.inexpressible);
  if (plan.needsObserve && state.info.features.observe !== true) {
    ctx.untested(
      'the registration has an observe subscription and the driver does not announce features.observe',
    );
  }
  state.configured = undefined;
  ctx.evidence({
    registration: plan.registration,
    expected: plan.expected ? 'accepted' : 'refused',
    ...(plan.draftBecause === undefined ? {} : { expectedBecause: plan.draftBecause }),
  });
  const configured = await configureHarness(state, { registration: plan.registration }, ctx);
  ctx.evidence({ configure: configured as unknown as JsonValue });
  const verdict = judgeRegistration(plan, configured.accepted, configured.issues ?? []);
  if (verdict.note !== undefined) ctx.evidence({ notes: [verdict.note] });
  if (verdict.problem !== undefined) {
    throw new CaseFailure([finding(plan.rule, verdict.problem)]);
  }
}

/** The verdict on one answer: a problem, or a note when the other allowed answer was given. */
export function judgeRegistration(
  plan: Pick<RegistrationPlan, 'expected' | 'eitherBecause'>,
  accepted: boolean,
  issues: readonly { path: string; message: string }[],
): { problem?: string; note?: string } {
  if (accepted === plan.expected) return {};
  if (plan.eitherBecause !== undefined) {
    return {
      note: `the harness ${accepted ? 'accepted' : 'refused'} the registration, which stands: ${plan.eitherBecause}`,
    };
  }
  if (accepted) return { problem: 'the harness accepted a registration the scenario refuses' };
  return {
    problem: `the harness refused a registration the scenario accepts: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
  };
}
