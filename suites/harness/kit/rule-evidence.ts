/**
 * What each harness rule reads of the driver's answer, and whether a case gave that evidence.
 * A driver may leave out the optional fields of its result (docs/driver-protocol.md); the judge
 * then does not check them, so a case whose requirement rests only on such a field shows nothing
 * about that requirement: it is `untested` for it, with the field named, never `pass`. Every rule
 * declares its evidence here (the table is keyed by the catalogue, so a new rule without an entry
 * does not compile). Pure.
 */
import type { DriverAuditEntry } from '../../driver/index.js';
import type { StepRun } from './case-model.js';
import { interceptEntries } from './judge.js';
import { HARNESS_RULES, type RuleKey } from './rules.js';

/** An optional field of the driver's answer that a rule's checks read. */
export type ReportedField =
  | 'audit.entryCutShort'
  | 'audit.failureClass'
  | 'audit.policy'
  | 'audit.attempts'
  | 'result.ending'
  | 'result.eventId'
  | 'result.reason'
  | 'result.outcomes';

/** How a field shows in one call: where it matters, and whether the driver reported it there. */
interface FieldReading {
  /** How reports name the field. */
  words: string;
  /** Where the field is in the answer, and in which calls a check needs it (for the docs' table). */
  where: string;
  /** True for the calls whose checks need the field. */
  matters(run: StepRun, entry: DriverAuditEntry | undefined): boolean;
  reported(run: StepRun, entry: DriverAuditEntry | undefined): boolean;
}

const INTERRUPTED_OUTCOMES = new Set(['interrupted', 'budget-expired']);

/** The fields, each with the calls where a check needs it. */
export const REPORTED_FIELDS: Readonly<Record<ReportedField, FieldReading>> = {
  'audit.entryCutShort': {
    words: 'audit entry for an interrupted delivery',
    where: 'the audit entry of a delivery that cancellation or the budget cut short',
    matters: (run) => INTERRUPTED_OUTCOMES.has(run.expected.audit.outcome),
    reported: (_run, entry) => entry !== undefined,
  },
  'audit.failureClass': {
    words: 'audit failureClass',
    where: '`audit[].failureClass`, on an operational failure',
    matters: (run) => run.expected.audit.outcome === 'operational-failure',
    reported: (_run, entry) => entry?.failureClass !== undefined,
  },
  'audit.policy': {
    words: 'audit policy',
    where: '`audit[].policy`, on every entry',
    matters: (_run, entry) => entry !== undefined,
    reported: (_run, entry) => entry?.policy !== undefined,
  },
  'audit.attempts': {
    words: 'audit attempts',
    where: '`audit[].attempts`, on a delivered call',
    matters: (run, entry) => entry !== undefined && run.records.requests.length > 0,
    reported: (_run, entry) => entry?.attempts !== undefined,
  },
  'result.ending': {
    words: 'ending',
    where: '`ending`, on an interrupted call',
    matters: (run) => run.expected.interrupted,
    reported: (run) => run.result.ending !== undefined,
  },
  'result.eventId': {
    words: 'eventId',
    where: '`eventId`, on a delivered call',
    matters: (run) => run.records.requests.length > 0,
    reported: (run) => run.result.eventId !== undefined,
  },
  'result.reason': {
    words: 'reason for a synthetic denial',
    where: '`reason`, on a synthetic denial',
    matters: (run) => run.result.decision === 'deny' && run.result.synthetic,
    reported: (run) => run.result.reason !== undefined,
  },
  'result.outcomes': {
    words: 'outcome members (features.outcomes)',
    where:
      '`messages` and the other v1.3 outcome members, on every effects case call (without `features.outcomes` such a case is untested)',
    matters: () => true,
    reported: (run) => run.result.messages !== undefined,
  },
};

/** A rule whose checks read only what every answer holds (decision, flags, audit outcome, the wire). */
const PRESENT: readonly ReportedField[] = [];

/**
 * What each rule reads beyond what every answer holds: empty when nothing more; otherwise the
 * fields any one of which, reported in every call where it matters, lets the rule be checked.
 */
export const RULE_EVIDENCE = {
  // The wire, and what reaches the backend (rules-wire.ts).
  'stdio.framing': PRESENT,
  'stdio.per-event-eof': PRESENT,
  'stdio.correlate-by-id': PRESENT,
  'http.body': PRESENT,
  'rpc.utf8': PRESENT,
  'rpc.envelope': PRESENT,
  'rpc.intercept-request': PRESENT,
  'delivery.request-sent': PRESENT,
  'delivery.no-unauthenticated-fallback': PRESENT,
  'intercept.id-is-event-id': PRESENT,
  'retry.identical-bytes': PRESENT,
  'event.reported-id': ['result.eventId'],
  'audit.attempts': ['audit.attempts'],
  'audit.answer-without-reply': PRESENT,
  'auth.bearer-header': PRESENT,
  'auth.token-only-in-header': PRESENT,
  // How a call settles and what the audit records (rules-outcome.ts).
  'failure-policy': PRESENT,
  'explicit-deny': PRESENT,
  'valid-result': PRESENT,
  'unknown-fields.ignored': PRESENT,
  'deadline.enforced': PRESENT,
  'deadline.full-length': PRESENT,
  'interrupt.cancel-ends-the-call': PRESENT,
  'interrupt.never-permission': PRESENT,
  'budget.expiry-ends-the-call': PRESENT,
  // Told apart by the call's ending, or by the audit outcome of a delivery it cut short.
  'budget.expiry-told-apart': ['result.ending', 'audit.entryCutShort'],
  'budget.shorter-deadline-applies': PRESENT,
  'budget.cleanup-not-permission': PRESENT,
  'retry.resend': PRESENT,
  'retry.never-after-a-decision': PRESENT,
  'retry.inside-the-deadline': PRESENT,
  // The audit outcome (operational failure or deny) already tells the two apart.
  'synthetic.audit-distinguishable': PRESENT,
  'audit.entry': PRESENT,
  'audit.policy': ['audit.policy'],
  'audit.failure-class': ['audit.failureClass'],
  'synthetic.generic-reason': ['result.reason'],
  'synthetic.no-details': ['result.reason'],
  // The families' own subjects (rules-families.ts): configure's answer, the wire, the decision.
  'registration.explicit-policy': PRESENT,
  'registration.policy-value': PRESENT,
  'registration.observe-no-policy': PRESENT,
  'registration.timeout-value': PRESENT,
  'registration.timeout-range': PRESENT,
  'registration.valid-accepted': PRESENT,
  'registration.document-shape': PRESENT,
  'registration.unusable-transport-refused': PRESENT,
  'registration.backend-id-unique': PRESENT,
  'registration.intercept-interceptable-only': PRESENT,
  'registration.managed-not-disableable': PRESENT,
  'registration.managed-scope-served': PRESENT,
  'auth.portable-bindings': PRESENT,
  'dispatch.selector': PRESENT,
  'event.tool-before': PRESENT,
  'event.payload': PRESENT,
  'event.lineage': PRESENT,
  'event.capabilities': PRESENT,
  'event.capabilities-enforceable': PRESENT,
  'event.extension-keys': PRESENT,
  'content.canonical': PRESENT,
  'content.selection': PRESENT,
  'content.native': PRESENT,
  'content.native-projection': PRESENT,
  'content.upload-framing': PRESENT,
  'content.upload-receipt': PRESENT,
  'content.upload-auth': PRESENT,
  'composition.chain': PRESENT,
  'composition.serial': PRESENT,
  // The effects cases read the v1.3 outcome members, except the control state, read on the wire.
  'effects.supplied-result': ['result.outcomes'],
  'effects.messages': ['result.outcomes'],
  'effects.permission': PRESENT,
  'effects.flow': ['result.outcomes'],
  'effects.continuation': ['result.outcomes'],
  'effects.inject': ['result.outcomes'],
  'effects.state': PRESENT,
  'effects.atomic': PRESENT,
  'effects.advertised-only': ['result.outcomes'],
  // A driver that announces features.execution must report `executed`: the check fails without it.
  'host.deny-not-executed': PRESENT,
  'host.empty-list-no-grant': PRESENT,
  'host.never-weakened': PRESENT,
  'host.ask-enforced': PRESENT,
  'host.execution-reported': PRESENT,
  'edit.outcome': PRESENT,
  'edit.passed-on': PRESENT,
  'edit.content-passed-on': PRESENT,
  'edit.hidden-replace': PRESENT,
  'edit.attachment-immutable': PRESENT,
  'observe.delivered': PRESENT,
  'observe.retry-identical': PRESENT,
  'shutdown.admission-stopped': PRESENT,
  'shutdown.processes-reaped': PRESENT,
  'shutdown.repeat-safe': PRESENT,
  'shutdown.caller-owned': PRESENT,
  'shutdown.pending-call-ended': PRESENT,
  'auth.callback-rechecked': PRESENT,
  'auth.shared-wait-cancel': PRESENT,
  'auth.failure-follows-policy': PRESENT,
  'deadline.covers-auth': PRESENT,
  'claim.consistent': PRESENT,
} as const satisfies Record<RuleKey, readonly ReportedField[]>;

/** The fields rule `key` reads beyond what every answer holds. */
export function ruleEvidence(key: RuleKey): readonly ReportedField[] {
  return RULE_EVIDENCE[key];
}

/**
 * The fields a requirement's checks can rest on: empty when one of its rules reads only what
 * every answer holds (it is always checked); `undefined` for an ID no rule belongs to.
 */
export function requirementEvidence(requirement: string): readonly ReportedField[] | undefined {
  const keys = (Object.keys(HARNESS_RULES) as RuleKey[]).filter(
    (k) => HARNESS_RULES[k].requirement === requirement,
  );
  if (keys.length === 0) return undefined;
  if (keys.some((k) => ruleEvidence(k).length === 0)) return PRESENT;
  return [...new Set(keys.flatMap((k) => ruleEvidence(k)))];
}

/** Whether the calls reported a field, and which calls (by number) that needed it lacked it. */
function readingOf(field: ReportedField, runs: readonly StepRun[], backendId: string) {
  const reading = REPORTED_FIELDS[field];
  let reported = false;
  const missing: string[] = [];
  for (const run of runs) {
    const entry = interceptEntries(run.result, backendId)[0];
    if (reading.reported(run, entry)) reported = true;
    else if (reading.matters(run, entry)) missing.push(`call ${run.index + 1}`);
  }
  return { field, shown: reported && missing.length === 0, reported, missing };
}

/**
 * For each of `requirements` the case's calls gave no evidence for, the reason: a requirement is
 * checked when one of its rules reads only what every answer holds, or when one of the fields
 * its rules read was reported in every call where it matters (and in one call at least). The
 * reason names the calls that lacked the field only when others reported it.
 */
export function unevidencedRequirements(
  requirements: readonly string[],
  runs: readonly StepRun[],
  backendId: string,
): Record<string, string> {
  const reasons: Record<string, string> = {};
  for (const id of requirements) {
    const fields = requirementEvidence(id);
    if (fields === undefined || fields.length === 0) continue;
    const readings = fields.map((f) => readingOf(f, runs, backendId));
    if (readings.some((r) => r.shown)) continue;
    const words = fields.map((f) => REPORTED_FIELDS[f].words).join(' or ');
    const partly = readings.find((r) => r.reported);
    const where = partly === undefined ? '' : ` in ${partly.missing.join(', ')}`;
    reasons[id] = `the driver reported no ${words}${where}, so ${id} was not checked`;
  }
  return reasons;
}
