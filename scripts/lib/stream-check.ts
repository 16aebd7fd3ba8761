// What a settled hook call may look like after one hostile stream, and the check of an actual
// result against it. The expectation is derived from the stream and the replay's timing record,
// never from the harness under test.
import type { FailureClass } from '../../protocol/failure-classes.js';
import { SYNTHETIC_DENIAL_REASON, type InvokeResult } from '../../reference-harness/index.js';
import { mayHoldNoEffectReply, type Verdict } from './reply-oracle.js';
import type { Lateness } from './run-support.js';

/** One acceptable settlement. `reason`/`denyCode`/`failureClass` are checked only when set. */
export type Outcome =
  | { kind: 'no-effect' }
  | { kind: 'deny'; reason?: string; denyCode?: string | null }
  | { kind: 'failure'; failureClass?: FailureClass };

/** The outcomes a reply judged `verdict` allows once it was accepted in time. */
export function outcomesOf(verdict: Verdict): Outcome[] {
  switch (verdict.kind) {
    case 'no-effect':
      return [{ kind: 'no-effect' }];
    case 'deny':
      return [{ kind: 'deny', reason: verdict.reason, denyCode: verdict.code ?? null }];
    case 'invalid':
      return [
        verdict.failureClass ? { kind: 'failure', failureClass: verdict.failureClass } : { kind: 'failure' },
      ];
    case 'unsure':
      return [{ kind: 'no-effect' }, { kind: 'deny' }, { kind: 'failure' }];
  }
}

/** The parts of a result the checks read. */
export type Settled = Pick<
  InvokeResult,
  'decision' | 'reason' | 'denyCode' | 'synthetic' | 'interrupted' | 'audit'
>;

/** Why `result` does not match `outcome` under `policy`, or undefined when it does. */
function mismatch(
  result: Settled,
  outcome: Outcome,
  policy: 'fail-open' | 'fail-closed',
): string | undefined {
  const record = result.audit[0];
  if (!record) return 'no audit record';
  const want = (cond: boolean, what: string) => (cond ? undefined : what);
  switch (outcome.kind) {
    case 'no-effect':
      return (
        want(result.decision === 'continue' && !result.synthetic, 'decision continue (no effect)') ??
        want(record.outcome === 'no-effect', 'audit outcome no-effect')
      );
    case 'deny':
      return (
        want(result.decision === 'deny' && !result.synthetic, 'an explicit (non-synthetic) deny') ??
        want(
          outcome.reason === undefined || result.reason === outcome.reason,
          `reason ${JSON.stringify(outcome.reason)}`,
        ) ??
        want(
          outcome.denyCode === undefined || (result.denyCode ?? null) === outcome.denyCode,
          `deny code ${JSON.stringify(outcome.denyCode)}`,
        ) ??
        want(record.outcome === 'deny' && record.synthetic === false, 'audit outcome deny, synthetic false')
      );
    case 'failure': {
      const base =
        want(record.outcome === 'operational-failure', 'audit outcome operational-failure') ??
        want(
          outcome.failureClass === undefined || record.failureClass === outcome.failureClass,
          `failure class ${outcome.failureClass ?? ''}`,
        );
      if (base) return base;
      return policy === 'fail-open'
        ? want(result.decision === 'continue' && !result.synthetic, 'fail-open: continue unchanged')
        : want(
            result.decision === 'deny' &&
              result.synthetic &&
              result.reason === SYNTHETIC_DENIAL_REASON &&
              record.synthetic === true,
            'fail-closed: a synthetic deny with the generic reason, marked synthetic in audit',
          );
    }
  }
}

/** What a stream's checks need besides the result. */
export interface CheckInput {
  result: Settled;
  policy: 'fail-open' | 'fail-closed';
  timeoutMs: number;
  requestId: string;
  /** Every byte the backend wrote for this request; more than one view when bytes may carry over. */
  bytes: Uint8Array | Uint8Array[];
  allowed: Outcome[];
  /** How late the call settled (see `startDeadlineProbe`); the bound applies to `netMs`. */
  lateness: Lateness;
  /** How far past the deadline a settlement may come. */
  lateToleranceMs: number;
}

/** Every violated property of one settled call (empty when it behaved). */
export function checkSettlement(input: CheckInput): string[] {
  const { result, policy } = input;
  const problems: string[] = [];
  if (result.interrupted) problems.push('the call reports an interruption nobody asked for');
  if (result.audit.length !== 1) problems.push(`expected 1 audit record, got ${result.audit.length}`);
  if (result.audit[0] && result.audit[0].policy !== policy)
    problems.push('the audit record names the wrong policy');
  if (input.lateness.netMs > input.lateToleranceMs) {
    problems.push(
      `settled ${input.lateness.netMs.toFixed(1)} ms after the process could first act on the ${input.timeoutMs} ms deadline (${input.lateness.rawMs.toFixed(1)} ms after the deadline itself): later than the ${input.lateToleranceMs} ms bound`,
    );
  }
  const views = Array.isArray(input.bytes) ? input.bytes : [input.bytes];
  if (
    policy === 'fail-closed' &&
    result.decision === 'continue' &&
    !views.some((b) => mayHoldNoEffectReply(b, input.requestId))
  ) {
    problems.push('fail-closed call continued although the stream holds no no-effect reply for this request');
  }
  const misses = input.allowed.map((o) => mismatch(result, o, policy));
  if (!misses.includes(undefined)) {
    const record = result.audit[0];
    const actual = `${result.decision}${result.synthetic ? ' (synthetic)' : ''}, audit ${record?.outcome ?? '-'}${record?.failureClass ? `/${record.failureClass}` : ''}`;
    problems.push(`settled as ${actual}; expected ${misses.map((m) => m ?? '').join(' | or | ')}`);
  }
  return problems;
}
