/**
 * Builds the AHP-FAIL-001 cases of one transport: for every failure class that applies there,
 * under each policy, one case holding the class's variants as successive calls (variants that end
 * the backend get a case of their own), plus the explicit-deny case. Pure data out.
 */
import { FAILURE_CLASSES, type FailureClass, type FailurePolicy } from '../../../protocol/failure-classes.js';
import type { Behaviour } from '../../../mock-backend/index.js';
import type { CaseStep, HarnessCase } from '../kit/case-model.js';
import { classifyBehaviour } from '../kit/classify.js';
import type { HarnessTransport } from '../kit/timing.js';
import { CLASS_VARIANTS, type ClassVariant } from './fail-class-variants.js';

/** Both policies, fail-open first. */
export const POLICIES: readonly FailurePolicy[] = ['fail-open', 'fail-closed'];

/** The reason the mock gives on explicit denials in these cases. */
export const EXPLICIT_DENY_REASON = 'Blocked by the conformance mock policy.';

function requirementsFor(failureClass: FailureClass, policy: FailurePolicy): string[] {
  const ids = ['AHP-FAIL-001', 'AHPX-FAIL-007'];
  if (failureClass === 'late-response') ids.push('AHPX-DL-002');
  if (failureClass === 'auth')
    ids.push('AHPX-FAIL-004', ...(policy === 'fail-open' ? ['AHPX-FAIL-005'] : []));
  return ids;
}

function stepOf(v: ClassVariant): CaseStep {
  return { label: v.label, behaviour: v.behaviour, ...(v.late ? { late: true } : {}) };
}

const deny: Behaviour = { kind: 'deny', reason: EXPLICIT_DENY_REASON };
const empty: Behaviour = { kind: 'respond' };

/**
 * The late reply is the one that flips the decision if the harness used it: a deny under
 * fail-open, `[]` under fail-closed. (What a late reply does to later calls is a deadline case.)
 */
function lateStep(v: ClassVariant, policy: FailurePolicy): CaseStep {
  return { label: v.label, behaviour: policy === 'fail-open' ? deny : empty, late: true };
}

/**
 * Whether a conforming harness may settle every one of these calls at its deadline (a persistent
 * backend's reply to another id, which it may ignore): the case then gets the short deadline, as
 * waiting out the long one would show nothing more.
 */
function everyStepMayEndAtDeadline(transport: HarnessTransport, steps: readonly CaseStep[]): boolean {
  return steps.every((step) => {
    const provoked = classifyBehaviour(step.behaviour, {
      transport,
      timeoutMs: Number.MAX_SAFE_INTEGER,
      late: step.late !== undefined && step.late !== false,
    });
    return provoked.kind === 'failure' && provoked.classes.includes('deadline-exceeded');
  });
}

function classCases(
  transport: HarnessTransport,
  failureClass: FailureClass,
  policy: FailurePolicy,
): HarnessCase[] {
  const variants = CLASS_VARIANTS[failureClass].filter((v) => v.transports.includes(transport));
  const base = `AHP-FAIL-001/transport:${transport}/policy:${policy}/class:${failureClass}`;
  const common = { requirements: requirementsFor(failureClass, policy), transport, policy };
  const cases: HarnessCase[] = [];
  const grouped = variants.filter((v) => !v.alone && !v.late);
  if (grouped.length > 0) {
    const steps = grouped.map(stepOf);
    const [first, ...rest] = steps as [CaseStep, ...CaseStep[]];
    const auth = grouped.find((v) => v.auth)?.auth;
    cases.push({
      name: grouped.length === 1 ? `${base}/${grouped[0]?.label ?? ''}` : base,
      ...common,
      ...first,
      ...(everyStepMayEndAtDeadline(transport, steps) ? { deadline: 'short' as const } : {}),
      ...(auth === undefined ? {} : { auth }),
      ...(rest.length > 0 ? { then: rest } : {}),
    });
  }
  for (const v of variants.filter((x) => x.alone || x.late)) {
    const alone: HarnessCase = {
      name: `${base}/${v.label}`,
      ...common,
      ...(v.late ? lateStep(v, policy) : stepOf(v)),
      ...(v.endpoint === undefined ? {} : { endpoint: v.endpoint }),
      ...(v.auth === undefined ? {} : { auth: v.auth }),
    };
    cases.push(...(v.auth === 'missing-token' ? unresolvedTokenCases(alone) : [alone]));
  }
  return cases;
}

/**
 * A token variable that is unset: the policy case judges that the failure follows the policy
 * (AHPX-FAIL-004), and, under fail-open, a case of its own judges that nothing went out without
 * credentials (AHPX-FAIL-005). A harness that refuses the registration delivers nothing, which
 * shows no fallback either way: that case is then `untested`, and only the policy case fails.
 */
function unresolvedTokenCases(policyCase: HarnessCase): HarnessCase[] {
  const withoutFallback = policyCase.requirements.filter((id) => id !== 'AHPX-FAIL-005');
  if (withoutFallback.length === policyCase.requirements.length) return [policyCase];
  return [
    { ...policyCase, requirements: withoutFallback },
    {
      ...policyCase,
      name:
        policyCase.name.replace(/^AHP-FAIL-001\//, 'AHPX-FAIL-005/') + '/nothing-sent-without-credentials',
      requirements: ['AHPX-FAIL-005'],
    },
  ];
}

/** An explicit deny is a decision under both policies, and a valid `[]` continues. */
function explicitDenyCase(transport: HarnessTransport, policy: FailurePolicy): HarnessCase {
  return {
    name: `AHP-FAIL-001/transport:${transport}/policy:${policy}/explicit-deny-is-not-a-failure`,
    requirements: ['AHP-FAIL-001', 'AHPX-FAIL-008'],
    transport,
    policy,
    label: 'explicit-deny',
    behaviour: deny,
    then: [{ label: 'empty-effects', behaviour: empty }],
  };
}

/** Every AHP-FAIL-001 class case of one transport, both policies. */
export function failureMatrix(transport: HarnessTransport): HarnessCase[] {
  return POLICIES.flatMap((policy) => [
    explicitDenyCase(transport, policy),
    ...FAILURE_CLASSES.flatMap((c) => classCases(transport, c, policy)),
  ]);
}
