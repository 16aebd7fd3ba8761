import type { FailurePolicy } from '../protocol/failure-classes.js';

/** What the chain does next after an operational failure at one interceptor. */
export type PolicyVerdict = { kind: 'continue-unchanged' } | { kind: 'synthetic-deny' };

/**
 * Applies a subscription's failure policy to one operational failure, once per response.
 * There is no default: the registration validator guarantees every interceptor has a policy.
 */
export function applyFailurePolicy(policy: FailurePolicy): PolicyVerdict {
  switch (policy) {
    case 'fail-open':
      return { kind: 'continue-unchanged' };
    case 'fail-closed':
      return { kind: 'synthetic-deny' };
  }
}
