/**
 * Which rule a finding about a call's outcome is judged under. The expectation names the rule it
 * rests on (`Expected.rule`); what the harness did decides between rules only where one
 * observation has two causes: a harness that took a reply the deadline had to shut out broke the
 * deadline, not the policy; one that settled an operational failure against its policy without
 * taking any reply broke the policy, whatever else the case is about; an audit that records a fail-closed failure as a backend denial
 * breaks the audit's duty to tell them apart; budget expiry reported as a cancellation (or the
 * reverse) breaks telling the two apart. Pure.
 *
 * One call settled the wrong way is one defect however it shows: a harness that takes a reply
 * the expectation makes an operational failure (or gives up on a reply it had to take) shows it
 * in the decision under one policy and only in the audit under the other. Both findings then
 * name the same way (`settlementWay`), so the defect is one problem across policies and
 * transports, never one per policy.
 */
import type { DriverAuditEntry, DriverAuditOutcome, InvokeResult } from '../../driver/index.js';
import type { Finding } from '../../common/finding.js';
import { FINDING_RANK } from '../../common/finding.js';
import type { Expected } from './case-model.js';
import { finding, type RuleKey } from './rules.js';

/** Audit outcomes that say the backend answered. */
export const ANSWERED_OUTCOMES: ReadonlySet<DriverAuditOutcome> = new Set(['no-effect', 'deny', 'effects']);

/** True when the harness settled the call from a reply (its audit says so, or it denied explicitly). */
export function tookReply(result: InvokeResult, entry: DriverAuditEntry | undefined): boolean {
  if (entry !== undefined) return ANSWERED_OUTCOMES.has(entry.outcome);
  return result.decision === 'deny' && result.synthetic === false;
}

/**
 * True when a call the expectation settles as an operational failure was settled against the
 * subscription's policy without any reply taken: a fail-closed call that continued, a fail-open
 * one that denied. Whatever rule the case is about (a retry bound, a deadline), that is the
 * failure policy broken.
 */
function againstPolicy(
  expected: Expected,
  result: InvokeResult,
  entry: DriverAuditEntry | undefined,
): boolean {
  if (expected.audit.outcome !== 'operational-failure' || expected.interrupted) return false;
  if (tookReply(result, entry)) return false;
  const policy = expected.audit.policy;
  return (
    (policy === 'fail-closed' && result.decision === 'continue') ||
    (policy === 'fail-open' && result.decision === 'deny')
  );
}

/**
 * How the call was settled wrong, when the harness's own evidence says so: it took a reply the
 * expectation makes an operational failure (`reply-taken`), or it settled without the reply it
 * had to take (`reply-not-taken`). Undefined otherwise (and for interrupted calls, which no reply
 * settles): the finding then says where it was seen.
 */
export function settlementWay(
  expected: Expected,
  result: InvokeResult,
  entry: DriverAuditEntry | undefined,
): 'reply-taken' | 'reply-not-taken' | undefined {
  if (expected.interrupted) return undefined;
  const took = tookReply(result, entry);
  if (expected.audit.outcome === 'operational-failure' && took) return 'reply-taken';
  if (ANSWERED_OUTCOMES.has(expected.audit.outcome) && !took) return 'reply-not-taken';
  return undefined;
}

/** The rule the call's outcome is judged under. */
export function outcomeRule(
  expected: Expected,
  result: InvokeResult,
  entry: DriverAuditEntry | undefined,
): RuleKey {
  if (expected.lateReply === true && tookReply(result, entry)) return 'deadline.enforced';
  return againstPolicy(expected, result, entry) ? 'failure-policy' : expected.rule;
}

/**
 * A finding about the call's outcome: named by how the call was settled wrong when that is known;
 * otherwise the failure policy's rule is broken by policy.
 */
export function outcomeFinding(
  expected: Expected,
  result: InvokeResult,
  entry: DriverAuditEntry | undefined,
  message: string,
): Finding {
  const key = outcomeRule(expected, result, entry);
  const way =
    settlementWay(expected, result, entry) ?? (key === 'failure-policy' ? expected.audit.policy : undefined);
  return finding(key, message, way === undefined ? {} : { way });
}

const expiryOrCancel = (a: string | undefined, b: string | undefined) =>
  a !== b && [a, b].every((x) => x === 'budget-expired' || x === 'cancelled' || x === 'interrupted');

/** A finding about how the call ended (`ending`), against the expectation. */
export function endingFinding(
  expected: Expected,
  result: InvokeResult,
  entry: DriverAuditEntry | undefined,
  message: string,
): Finding {
  return expiryOrCancel(expected.ending, result.ending)
    ? finding('budget.expiry-told-apart', message)
    : outcomeFinding(expected, result, entry, message);
}

/** A finding about the audit entry's outcome, against the expectation. */
export function auditOutcomeFinding(
  expected: Expected,
  result: InvokeResult,
  entry: DriverAuditEntry,
  message: string,
): Finding {
  const want = expected.audit.outcome;
  const got = entry.outcome;
  if (expiryOrCancel(want, got)) return finding('budget.expiry-told-apart', message);
  const failureAsDeny =
    want === 'operational-failure' && expected.audit.policy === 'fail-closed' && got === 'deny';
  const denyAsFailure = want === 'deny' && got === 'operational-failure';
  if (failureAsDeny || denyAsFailure) return finding('synthetic.audit-distinguishable', message);
  // The audit showing a call settled the wrong way is that settlement's defect, at its rank.
  const way = settlementWay(expected, result, entry);
  const key = outcomeRule(expected, result, entry);
  return way === undefined
    ? finding(key, message, { way: 'audit', rank: FINDING_RANK.report })
    : finding(key, message, { way });
}
