/**
 * Derives what a case expects from its data: the registration's acceptance, then the settled
 * decision from what the mock does and the policy (the seed's rules: an operational failure
 * continues unchanged under fail-open and is a synthetic deny under fail-closed; an explicit deny
 * denies under both; interruption is never permission). Pure.
 */
import type { JsonValue } from '../../../protocol/json.js';
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import type { CaseStep, ExpectOverride, Expected, HarnessCase, SubscriptionPatch } from './case-model.js';
import { classifyBehaviour, provokedRule, type Provoked } from './classify.js';
import type { RuleKey } from './rules.js';

/** A registration a harness must refuse: why, and the rule that says so. */
export interface Refusal {
  reason: string;
  rule: RuleKey;
}

/** Why a subscription patch makes the registration one a harness must refuse, and its rule. */
export function refusalOf(patch: SubscriptionPatch | undefined): Refusal | undefined {
  if (!patch) return undefined;
  const set = patch.set ?? {};
  const given = (key: string) => Object.hasOwn(set, key);
  if ((patch.mode ?? 'intercept') === 'observe') {
    const carried = ['failurePolicy', 'timeoutMs'].find(given);
    return carried === undefined
      ? undefined
      : { reason: `an observe subscription that carries ${carried}`, rule: 'registration.observe-no-policy' };
  }
  // An intercept subscription starts with both fields; `omit` removes them unless `set` restores them.
  const present = (key: string) => given(key) || !(patch.omit ?? []).includes(key);
  if (!present('failurePolicy')) {
    return {
      reason: 'an intercept subscription without failurePolicy (no implicit default)',
      rule: 'registration.explicit-policy',
    };
  }
  if (!present('timeoutMs')) {
    return { reason: 'an intercept subscription without timeoutMs', rule: 'registration.timeout-value' };
  }
  if (given('failurePolicy') && set.failurePolicy !== 'fail-open' && set.failurePolicy !== 'fail-closed') {
    return {
      reason: `failurePolicy ${JSON.stringify(set.failurePolicy)}`,
      rule: 'registration.policy-value',
    };
  }
  if (given('timeoutMs') && !isPositiveInteger(set.timeoutMs)) {
    return {
      reason: `timeoutMs ${JSON.stringify(set.timeoutMs)}, which is not a positive integer`,
      rule: 'registration.timeout-value',
    };
  }
  return undefined;
}

/** Why a subscription patch makes the registration one a harness must refuse, or undefined. */
export function refusalReason(patch: SubscriptionPatch | undefined): string | undefined {
  return refusalOf(patch)?.reason;
}

function isPositiveInteger(value: JsonValue | undefined): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/** True when the behaviour makes the call run into its deadline (so the default deadline is short). */
export function waitsForDeadline(step: CaseStep): boolean {
  if (step.late) return true;
  const kind = step.behaviour.kind;
  return kind === 'hang' || kind === 'delay' || kind === 'slow-body';
}

/** The outcome of `provoked` under `policy`, without interruption. */
export function settle(
  provoked: Provoked,
  policy: FailurePolicy,
): Omit<Expected, 'configure' | 'wire' | 'deliveryRule'> {
  const rule = provokedRule(provoked);
  switch (provoked.kind) {
    case 'answer':
      return {
        decision: 'continue',
        synthetic: false,
        interrupted: false,
        audit: { outcome: 'no-effect', policy },
        because: provoked.because,
        rule,
      };
    case 'deny':
      return {
        decision: 'deny',
        synthetic: false,
        interrupted: false,
        audit: { outcome: 'deny', policy, synthetic: false },
        denyReason: provoked.reason,
        because: provoked.because,
        rule,
      };
    case 'failure': {
      const closed = policy === 'fail-closed';
      return {
        decision: closed ? 'deny' : 'continue',
        synthetic: closed,
        interrupted: false,
        audit: { outcome: 'operational-failure', classes: provoked.classes, policy, synthetic: closed },
        ...(provoked.unadvertised ? { unadvertised: provoked.unadvertised } : {}),
        ...(provoked.lateReply ? { lateReply: true as const } : {}),
        because: `${provoked.because} (${provoked.classes.join(' or ')}) under ${policy}`,
        rule,
      };
    }
  }
}

/**
 * What the case's endpoint or auth settles before any behaviour can matter, and the rule that
 * keeps the call from being delivered.
 */
function endpointFailure(testCase: HarnessCase): { provoked: Provoked; undelivered: RuleKey } | undefined {
  if (testCase.endpoint === 'unlaunchable') {
    const provoked: Provoked = {
      kind: 'failure',
      classes: ['process'],
      because: 'the backend command cannot be launched',
    };
    return { provoked, undelivered: 'failure-policy' };
  }
  if (testCase.endpoint === 'refused') {
    const provoked: Provoked = {
      kind: 'failure',
      classes: ['connection'],
      because: 'the connection is refused',
    };
    return { provoked, undelivered: 'failure-policy' };
  }
  if (testCase.auth === 'missing-token') {
    const provoked: Provoked = {
      kind: 'failure',
      classes: ['auth'],
      because: 'the bearer token variable is not set',
    };
    return { provoked, undelivered: 'delivery.no-unauthenticated-fallback' };
  }
  return undefined;
}

/** The rule an interruption rests on, by how the call ended. */
export function interruptionRule(ending: Expected['ending']): RuleKey | undefined {
  if (ending === 'cancelled') return 'interrupt.cancel-ends-the-call';
  if (ending === 'budget-expired') return 'budget.expiry-ends-the-call';
  if (ending === 'closed') return 'shutdown.pending-call-ended';
  return undefined;
}

/** Applies an interruption the step's invoke options cause before the backend can answer. */
function interruption(step: CaseStep, provoked: Provoked, timeoutMs: number): Partial<Expected> | undefined {
  const cancel = step.invoke?.cancelAfterMs;
  const budget = step.invoke?.budgetMs;
  const waits = provoked.kind === 'failure' && provoked.classes.includes('deadline-exceeded');
  if (!waits) return undefined;
  const candidates: Array<['cancelled' | 'budget-expired', number]> = [];
  if (cancel !== undefined && cancel < timeoutMs) candidates.push(['cancelled', cancel]);
  if (budget !== undefined && budget < timeoutMs) candidates.push(['budget-expired', budget]);
  const first = candidates.sort((a, b) => a[1] - b[1])[0];
  if (!first) return undefined;
  const [ending] = first;
  return {
    decision: 'deny',
    synthetic: true,
    interrupted: true,
    ending,
    because: `the call is ${ending === 'cancelled' ? 'cancelled' : 'out of budget'} before the deadline; never permission`,
    rule: ending === 'cancelled' ? 'interrupt.cancel-ends-the-call' : 'budget.expiry-ends-the-call',
  };
}

/**
 * Merges explicit expectations over derived ones (audit fields one by one). An override that
 * makes the call end by an interruption rests on that interruption's rule unless it names one.
 */
export function applyOverride(derived: Expected, override: ExpectOverride | undefined): Expected {
  if (!override) return derived;
  const { audit, ...rest } = override;
  const byEnding = override.rule === undefined ? interruptionRule(override.ending) : undefined;
  const merged = {
    ...derived,
    ...rest,
    ...(byEnding === undefined ? {} : { rule: byEnding }),
    audit: { ...derived.audit, ...audit },
  } as Expected;
  if (merged.interrupted) delete merged.lateReply;
  return merged;
}

/** The expected outcome of one step of a case whose subscription has `timeoutMs`. */
export function deriveExpectation(testCase: HarnessCase, step: CaseStep, timeoutMs: number): Expected {
  const refusal = refusalOf(testCase.subscription);
  if (refusal !== undefined) {
    return applyOverride(
      {
        configure: 'rejected',
        decision: 'deny',
        synthetic: false,
        interrupted: false,
        audit: { outcome: 'skipped', policy: testCase.policy },
        wire: 'none',
        because: `the harness must refuse ${refusal.reason}`,
        rule: refusal.rule,
        deliveryRule: refusal.rule,
      },
      step.expect,
    );
  }
  const early = endpointFailure(testCase);
  const provoked =
    early?.provoked ??
    step.means ??
    classifyBehaviour(step.behaviour, {
      transport: testCase.transport,
      timeoutMs,
      late: step.late !== undefined && step.late !== false,
    });
  const settled = settle(provoked, testCase.policy);
  const interrupted = interruption(step, provoked, timeoutMs);
  const derived: Expected = {
    configure: 'accepted',
    ...settled,
    ...(interrupted ?? {}),
    audit: interrupted
      ? {
          outcome: interrupted.ending === 'budget-expired' ? 'budget-expired' : 'interrupted',
          policy: testCase.policy,
        }
      : settled.audit,
    wire: early ? 'none' : interrupted ? 'any' : 'delivered',
    deliveryRule: early?.undelivered ?? 'delivery.request-sent',
  };
  // An interruption ends the call before any reply, late or not, can matter.
  if (interrupted) delete derived.lateReply;
  return applyOverride(derived, step.expect);
}
