/**
 * Derives what a case expects from its data: the registration's acceptance, then the settled
 * decision from what the mock does and the policy (the seed's rules: an operational failure
 * continues unchanged under fail-open and is a synthetic deny under fail-closed; an explicit deny
 * denies under both; interruption is never permission). Pure.
 */
import type { JsonValue } from '../../../protocol/json.js';
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import type { CaseStep, ExpectOverride, Expected, HarnessCase, SubscriptionPatch } from './case-model.js';
import { classifyBehaviour, type Provoked } from './classify.js';

/** Why a subscription patch makes the registration one a harness must refuse, or undefined. */
export function refusalReason(patch: SubscriptionPatch | undefined): string | undefined {
  if (!patch) return undefined;
  const set = patch.set ?? {};
  const given = (key: string) => Object.hasOwn(set, key);
  if ((patch.mode ?? 'intercept') === 'observe') {
    const carried = ['failurePolicy', 'timeoutMs'].find(given);
    return carried === undefined ? undefined : `an observe subscription that carries ${carried}`;
  }
  // An intercept subscription starts with both fields; `omit` removes them unless `set` restores them.
  const present = (key: string) => given(key) || !(patch.omit ?? []).includes(key);
  if (!present('failurePolicy'))
    return 'an intercept subscription without failurePolicy (no implicit default)';
  if (!present('timeoutMs')) return 'an intercept subscription without timeoutMs';
  if (given('failurePolicy') && set.failurePolicy !== 'fail-open' && set.failurePolicy !== 'fail-closed') {
    return `failurePolicy ${JSON.stringify(set.failurePolicy)}`;
  }
  if (given('timeoutMs') && !isPositiveInteger(set.timeoutMs)) {
    return `timeoutMs ${JSON.stringify(set.timeoutMs)}, which is not a positive integer`;
  }
  return undefined;
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
export function settle(provoked: Provoked, policy: FailurePolicy): Omit<Expected, 'configure' | 'wire'> {
  switch (provoked.kind) {
    case 'answer':
      return {
        decision: 'continue',
        synthetic: false,
        interrupted: false,
        audit: { outcome: 'no-effect', policy },
        because: provoked.because,
      };
    case 'deny':
      return {
        decision: 'deny',
        synthetic: false,
        interrupted: false,
        audit: { outcome: 'deny', policy, synthetic: false },
        denyReason: provoked.reason,
        because: provoked.because,
      };
    case 'failure': {
      const closed = policy === 'fail-closed';
      return {
        decision: closed ? 'deny' : 'continue',
        synthetic: closed,
        interrupted: false,
        audit: { outcome: 'operational-failure', classes: provoked.classes, policy, synthetic: closed },
        ...(provoked.unadvertised ? { unadvertised: provoked.unadvertised } : {}),
        because: `${provoked.because} (${provoked.classes.join(' or ')}) under ${policy}`,
      };
    }
  }
}

/** What the case's endpoint or auth settles before any behaviour can matter. */
function endpointFailure(testCase: HarnessCase): Provoked | undefined {
  if (testCase.endpoint === 'unlaunchable') {
    return { kind: 'failure', classes: ['process'], because: 'the backend command cannot be launched' };
  }
  if (testCase.endpoint === 'refused') {
    return { kind: 'failure', classes: ['connection'], because: 'the connection is refused' };
  }
  if (testCase.auth === 'missing-token') {
    return { kind: 'failure', classes: ['auth'], because: 'the bearer token variable is not set' };
  }
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
  };
}

/** Merges explicit expectations over derived ones (audit fields one by one). */
export function applyOverride(derived: Expected, override: ExpectOverride | undefined): Expected {
  if (!override) return derived;
  const { audit, ...rest } = override;
  return { ...derived, ...rest, audit: { ...derived.audit, ...audit } } as Expected;
}

/** The expected outcome of one step of a case whose subscription has `timeoutMs`. */
export function deriveExpectation(testCase: HarnessCase, step: CaseStep, timeoutMs: number): Expected {
  const refusal = refusalReason(testCase.subscription);
  if (refusal !== undefined) {
    return applyOverride(
      {
        configure: 'rejected',
        decision: 'deny',
        synthetic: false,
        interrupted: false,
        audit: { outcome: 'skipped', policy: testCase.policy },
        wire: 'none',
        because: `the harness must refuse ${refusal}`,
      },
      step.expect,
    );
  }
  const early = endpointFailure(testCase);
  const provoked =
    early ??
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
  };
  return applyOverride(derived, step.expect);
}
