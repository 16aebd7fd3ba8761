import type { InterceptSubscription } from '../protocol/registration.js';
import type { Capabilities } from '../protocol/wire-types.js';
import { openRecord, type AuditRecord } from './audit.js';
import type { DeliveryDeps } from './delivery.js';
import type { Planned } from './dispatch.js';
import { runInterceptor } from './interceptor.js';
import type { Ending } from './interruption.js';
import { applyFailurePolicy } from './policy.js';
import type { EffectiveState } from './staging.js';
import { interruptedReason, SYNTHETIC_DENIAL_REASON } from './synthetic-denial.js';

/** How decision-making ended for one call. */
export interface ChainSettlement {
  /** The accepted effective state at settlement. */
  state: EffectiveState;
  decision: 'continue' | 'deny';
  /**
   * The backend's own reason for an explicit deny or an accepted flow stop; a generic local
   * sentence for a synthetic denial.
   */
  reason?: string;
  /** The backend's deny code, for an explicit deny that carried one. */
  denyCode?: string;
  /** True when the denial did not come from a backend (fail-closed or interruption). */
  synthetic: boolean;
  /** Set when the call ended (cancelled, budget expired, closed) before it settled. */
  ending?: Ending;
  /** One record per matching interceptor, in order. */
  records: AuditRecord[];
  /** Interceptors a short-circuit left uncalled; they get the boundary as `hooks/observe`. */
  uncalled: Planned<InterceptSubscription>[];
}

/**
 * Runs the matching interceptors one after another, never concurrently, in registration order.
 * `[]` moves on; an accepted deny or flow stop ends the chain (explicit, under either policy); a
 * stop is no denial: the decision stays `continue` and the flow outcome says the operation does
 * not go ahead (later interceptors are not asked); an operational
 * failure goes through the subscription's policy once; the call's ending stops everything and
 * is never permission, whatever was accepted before.
 */
export async function runChain(
  intercepts: readonly Planned<InterceptSubscription>[],
  initial: EffectiveState,
  capabilities: Capabilities,
  deps: DeliveryDeps,
): Promise<ChainSettlement> {
  const records: AuditRecord[] = [];
  let state = initial;

  for (let i = 0; i < intercepts.length; i++) {
    const planned = intercepts[i] as Planned<InterceptSubscription>;
    const before = deps.call.ending();
    if (before !== undefined) return endedAt(intercepts, i, before, state, records, deps);
    const { step, record } = await runInterceptor(planned, state, capabilities, deps);
    records.push(record);
    if (step.kind === 'ended') return endedAt(intercepts, i + 1, step.ending, state, records, deps);
    if (step.kind === 'failure') {
      if (applyFailurePolicy(planned.subscription.failurePolicy).kind === 'continue-unchanged') continue;
      record.synthetic = true;
      const why = 'not called: a fail-closed failure ended the chain';
      return shortCircuit(
        intercepts,
        i,
        state,
        records,
        deps,
        why,
        { reason: SYNTHETIC_DENIAL_REASON },
        true,
      );
    }
    state = step.staged.state;
    const { deny, stop } = step.staged;
    if (deny) {
      const why = 'not called: an earlier interceptor denied';
      return shortCircuit(intercepts, i, state, records, deps, why, deny, false);
    }
    // A flow stop ends decision-making, and the pending operation does not run; it is no denial.
    if (stop) {
      const why = 'not called: an earlier interceptor stopped the flow';
      const uncalled = skipFrom(intercepts, i + 1, records, deps, why);
      return { state, decision: 'continue', reason: stop.reason, synthetic: false, records, uncalled };
    }
  }
  const last = deps.call.ending();
  if (last !== undefined) return endedAt(intercepts, intercepts.length, last, state, records, deps);
  return { state, decision: 'continue', synthetic: false, records, uncalled: [] };
}

/**
 * The settlement of a chain that interceptor `at` ended by denying (explicitly, or synthetically
 * after a fail-closed failure): the rest are skipped and left for the boundary copy.
 */
function shortCircuit(
  intercepts: readonly Planned<InterceptSubscription>[],
  at: number,
  state: EffectiveState,
  records: AuditRecord[],
  deps: DeliveryDeps,
  why: string,
  denial: { reason: string; code?: string | undefined },
  synthetic: boolean,
): ChainSettlement {
  const uncalled = skipFrom(intercepts, at + 1, records, deps, why);
  const settlement: ChainSettlement = {
    state,
    decision: 'deny',
    reason: denial.reason,
    synthetic,
    records,
    uncalled,
  };
  if (denial.code !== undefined) settlement.denyCode = denial.code;
  return settlement;
}

/** Records the interceptors from `from` on as skipped, and returns them. */
function skipFrom(
  intercepts: readonly Planned<InterceptSubscription>[],
  from: number,
  records: AuditRecord[],
  deps: DeliveryDeps,
  why: string,
): Planned<InterceptSubscription>[] {
  const rest = intercepts.slice(from);
  for (const planned of rest) {
    const record = openRecord(planned.ref, 'intercept', 'skipped', deps.clock.now());
    record.policy = planned.subscription.failurePolicy;
    record.detail = why;
    records.push(record);
  }
  return rest;
}

/** The settlement of a call that ended (cancelled, budget expired, closed) before `from`. */
function endedAt(
  intercepts: readonly Planned<InterceptSubscription>[],
  from: number,
  ending: Ending,
  state: EffectiveState,
  records: AuditRecord[],
  deps: DeliveryDeps,
): ChainSettlement {
  skipFrom(intercepts, from, records, deps, `not called: the call ended (${ending})`);
  return {
    state,
    decision: 'deny',
    reason: interruptedReason(ending),
    synthetic: true,
    ending,
    records,
    uncalled: [],
  };
}
