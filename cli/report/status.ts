/**
 * The one status vocabulary of every report: what a case or a requirement shows. A case that
 * failed at a SHOULD level is a warning, not a failure; a requirement follows its failing cases
 * (a MUST case failed: `fail`; only SHOULD cases failed: `warn`). The console, report.json,
 * JUnit, HTML and Markdown all read their statuses from here, so that none says FAIL where
 * another says WARN.
 */
import type { RequirementLevel } from '../../protocol/requirements.js';
import { isMandatory, type CaseStatus } from '../runner/case-result.js';

/** A case's or a requirement's status as reported: a case status, or `warn`. */
export type ReportedStatus = CaseStatus | 'warn';

/** What a case shows: its status, with a failure at a SHOULD level turned into `warn`. */
export function caseVerdict(c: { status: CaseStatus; level: RequirementLevel }): ReportedStatus {
  return c.status === 'fail' && !isMandatory(c.level) ? 'warn' : c.status;
}

/** A case as a requirement's verdict reads it: its status, and the requirements it gave no evidence for. */
export interface ListedCase {
  status: CaseStatus;
  level: RequirementLevel;
  untestedRequirements?: Readonly<Record<string, string>>;
}

/**
 * What a case shows under `requirement`: `untested` when it passed but gave no evidence for that
 * requirement (the fields its checks read were not reported), else the case's own verdict.
 */
export function caseVerdictFor(c: ListedCase, requirement: string | undefined): ReportedStatus {
  if (
    requirement !== undefined &&
    c.status === 'pass' &&
    c.untestedRequirements?.[requirement] !== undefined
  ) {
    return 'untested';
  }
  return caseVerdict(c);
}

/** Why a case is untested under `requirement` though it passed, if it is. */
export function untestedReasonFor(c: ListedCase, requirement: string): string | undefined {
  return c.status === 'pass' ? c.untestedRequirements?.[requirement] : undefined;
}

/**
 * A requirement's status from its cases (as they show under `requirement`, when given): `fail` if
 * a MUST case failed, else `warn` if a SHOULD case failed, else known-failure, untested, pass, and
 * `skipped` when nothing ran.
 */
export function requirementStatus(cases: readonly ListedCase[], requirement?: string): ReportedStatus {
  const verdicts = cases.map((c) => caseVerdictFor(c, requirement));
  for (const s of ['fail', 'warn', 'known-failure', 'blocked', 'untested', 'pass'] as const) {
    if (verdicts.includes(s)) return s;
  }
  return 'skipped';
}

/** Every reported status, in the order reports count them. */
export const REPORTED_STATUSES: readonly ReportedStatus[] = [
  'pass',
  'fail',
  'warn',
  'untested',
  'blocked',
  'known-failure',
  'skipped',
];

/** The words the files use for each status (the console has its own short capitals). */
export const STATUS_WORD: Readonly<Record<ReportedStatus, string>> = {
  pass: 'pass',
  fail: 'FAIL',
  warn: 'warn',
  untested: 'untested',
  blocked: 'blocked',
  skipped: 'skipped',
  'known-failure': 'known failure',
};

/**
 * How many of the cases show each status, as "2 pass, 1 warn" (statuses with none left out), as
 * they show under `requirement` when given.
 */
export function statusCounts(
  cases: readonly ListedCase[],
  word: Readonly<Record<ReportedStatus, string>> = STATUS_WORD,
  requirement?: string,
): string {
  const verdicts = cases.map((c) => caseVerdictFor(c, requirement));
  return REPORTED_STATUSES.map((s) => [s, verdicts.filter((v) => v === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${word[s]}`)
    .join(', ');
}
