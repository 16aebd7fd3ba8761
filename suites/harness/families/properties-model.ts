/**
 * The properties' own tiny model of the seed's rules, independent of the kit's derivation: a
 * chain of intercept subscriptions is walked in order; an answer `[]` passes to the next, an
 * explicit deny ends the chain (not synthetic), an operational failure passes under fail-open and
 * ends it with a synthetic deny under fail-closed. Retries: failures are retried while any are
 * left, and a decision (deny or `[]`) never is. Pure.
 */
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import type { Behaviour } from '../../../mock-backend/index.js';
import type { RuleKey } from '../kit/rules.js';
import type { HarnessTransport } from '../kit/timing.js';

/** What one delivery does, as the model sees it. */
export type Outcome = 'answer' | 'deny' | 'failure';

/** One generated step: a mock behaviour and what it is. */
export interface GeneratedBehaviour {
  label: string;
  outcome: Outcome;
  behaviour: Behaviour;
}

/** The settled call the model predicts. */
export interface Prediction {
  decision: 'continue' | 'deny';
  synthetic: boolean;
  /** Intercept requests the mock receives for the call. */
  deliveries: number;
  /** The rule the decision rests on, and the policy that broke it when it is the failure policy's. */
  rule: RuleKey;
  way?: FailurePolicy;
  /** The rule the number of deliveries rests on. */
  deliveriesRule: RuleKey;
}

/** A chain of subscriptions (one delivery each), with their policies, in registration order. */
export function predictChain(links: ReadonlyArray<{ policy: FailurePolicy; outcome: Outcome }>): Prediction {
  let deliveries = 0;
  let failedOpen = false;
  const deliveriesRule = 'composition.chain';
  for (const { policy, outcome } of links) {
    deliveries++;
    if (outcome === 'deny') {
      return { decision: 'deny', synthetic: false, deliveries, rule: 'explicit-deny', deliveriesRule };
    }
    if (outcome === 'failure' && policy === 'fail-closed') {
      const rule = 'failure-policy';
      return { decision: 'deny', synthetic: true, deliveries, rule, way: 'fail-closed', deliveriesRule };
    }
    if (outcome === 'failure') failedOpen = true;
  }
  const settled = { decision: 'continue', synthetic: false, deliveries, deliveriesRule } as const;
  return failedOpen
    ? { ...settled, rule: 'failure-policy', way: 'fail-open' }
    : { ...settled, rule: 'valid-result' };
}

/** One subscription that fails `failures` times, then ends with `final`, allowed `retries` retries. */
export function predictRetries(options: {
  failures: number;
  final: Exclude<Outcome, 'failure'>;
  retries: number;
  policy: FailurePolicy;
}): Prediction {
  const { failures, final, retries, policy } = options;
  const deliveriesRule = 'retry.resend';
  if (failures > retries) {
    return { ...predictChain([{ policy, outcome: 'failure' }]), deliveries: retries + 1, deliveriesRule };
  }
  // A decision alone carries no policy; with failures before it, it decides only because the
  // harness retried.
  const settled = predictChain([{ policy, outcome: final }]);
  const retried = failures > 0 ? { rule: 'retry.resend' as const } : {};
  return { ...settled, ...retried, deliveries: failures + 1, deliveriesRule };
}

/** Fast operational failures (none waits for a deadline), before the transport's say. */
const FAST_FAILURES: readonly GeneratedBehaviour[] = [
  { label: 'rpc-error', outcome: 'failure', behaviour: { kind: 'rpc-error', code: -32603 } },
  { label: 'malformed-json', outcome: 'failure', behaviour: { kind: 'malformed-json' } },
  {
    label: 'mismatched-id',
    outcome: 'failure',
    behaviour: { kind: 'mismatched-id', id: 'not-the-event-id' },
  },
  {
    label: 'unknown-effect',
    outcome: 'failure',
    behaviour: { kind: 'respond', effects: [{ type: 'explode' }] },
  },
  { label: 'missing-effects', outcome: 'failure', behaviour: { kind: 'respond', omit: ['effects'] } },
  { label: 'not-jsonrpc', outcome: 'failure', behaviour: { kind: 'not-jsonrpc', variant: 'no-jsonrpc' } },
];

/**
 * The fast operational failures `transport` can show. A reply under another id is one only where
 * the one reply is the answer (HTTP, per_event): a persistent stdio harness correlates replies by
 * JSON-RPC id (stdio.md, "Persistent lifecycle") and waits for its own until the deadline.
 */
export function fastFailures(transport: HarnessTransport): readonly GeneratedBehaviour[] {
  return transport === 'stdio-persistent'
    ? FAST_FAILURES.filter((f) => f.label !== 'mismatched-id')
    : FAST_FAILURES;
}

/** The two decisions a backend can give. */
export const DECISIONS: readonly GeneratedBehaviour[] = [
  { label: 'answer', outcome: 'answer', behaviour: { kind: 'respond', effects: [] } },
  { label: 'deny', outcome: 'deny', behaviour: { kind: 'deny', reason: 'denied by the property' } },
];
