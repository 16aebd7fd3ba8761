import type { FailureClass, FailurePolicy } from '../protocol/failure-classes.js';

/** Audit outcomes, named as in the driver protocol. */
export type AuditOutcome =
  'no-effect' | 'deny' | 'effects' | 'operational-failure' | 'skipped' | 'interrupted' | 'budget-expired';

/**
 * What happened at one subscription during one hook call. Local only: `detail` may hold backend
 * bytes or addresses and must never be shown to the model.
 */
export interface AuditRecord {
  backendId: string;
  /** Index of the backend in `hooks`. */
  hookIndex: number;
  /** Index of the subscription in that backend's `subscriptions`. */
  subscriptionIndex: number;
  /** The subscription's local `id`, when the registration gives one. */
  subscriptionId?: string;
  /** How this record's delivery went out: a decision request or a notification. */
  mode: 'intercept' | 'observe';
  outcome: AuditOutcome;
  failureClass?: FailureClass;
  /** Stable machine code under the class (e.g. `stdio.exit-nonzero`, `result.unadvertised-effect`). */
  failureCode?: string;
  /** The subscription's failure policy (intercept subscriptions only). */
  policy?: FailurePolicy;
  /** True on a fail-closed synthetic denial, false on an explicit backend deny. */
  synthetic?: boolean;
  /** Effect types of an accepted response, in order. */
  effects?: string[];
  /** Set on the `hooks/observe` copy sent to an interceptor left uncalled by a short-circuit. */
  boundaryCopy?: boolean;
  /** Sends made (0 when nothing was sent). */
  attempts: number;
  /** Monotonic milliseconds. */
  startedAt: number;
  settledAt: number;
  /**
   * A reply that arrived after the deadline while the transport still listened. It changes
   * nothing; it may be filled in after `invoke` resolved, for as long as the transport listens.
   */
  lateResponse?: { at: number; bytesLength: number };
  /** Local diagnostics only. */
  detail?: string;
}

/** Where a subscription sits in the registration. */
export interface SubscriptionRef {
  backendId: string;
  hookIndex: number;
  subscriptionIndex: number;
  subscriptionId?: string;
}

/** A fresh record for `ref`, to be completed as the delivery proceeds. */
export function openRecord(
  ref: SubscriptionRef,
  mode: AuditRecord['mode'],
  outcome: AuditOutcome,
  at: number,
): AuditRecord {
  const record: AuditRecord = {
    backendId: ref.backendId,
    hookIndex: ref.hookIndex,
    subscriptionIndex: ref.subscriptionIndex,
    mode,
    outcome,
    attempts: 0,
    startedAt: at,
    settledAt: at,
  };
  if (ref.subscriptionId !== undefined) record.subscriptionId = ref.subscriptionId;
  return record;
}

/** The audit outcome of work that a call's ending cut short. */
export function endingOutcome(ending: 'cancelled' | 'budget-expired' | 'closed'): AuditOutcome {
  return ending === 'budget-expired' ? 'budget-expired' : 'interrupted';
}
