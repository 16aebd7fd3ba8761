/**
 * What changed between two runs, case by case: the comparison `ahp-conformance diff` prints.
 * Pure: two reports in, the changes out. A case is known by its name; a case that was not run
 * (`skipped`, left out by the selection) counts as absent, never as passed.
 */
import { counted } from './count.js';
import type { CaseStatus } from '../runner/case-result.js';
import type { Report } from './report.js';

/** The kinds of change, in the order they are printed: what needs a look first comes first. */
export const CHANGE_KINDS = ['regressed', 'fixed', 'newlyUntested', 'newlyPassing', 'gone', 'new'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** The heading of each kind of change. */
export const CHANGE_HEADINGS: Readonly<Record<ChangeKind, string>> = {
  regressed: 'Regressed (did not fail before, fails now)',
  fixed: 'Fixed (failed before, passes now)',
  newlyUntested: 'Newly untested (judged before, untested or blocked now)',
  newlyPassing: 'Newly passing (untested or blocked before, passes now)',
  gone: 'Gone (ran before, not run now)',
  new: 'New (not run before, runs now)',
};

/** One changed case: its name and its status in each run (absent: it did not run there). */
export interface CaseChange {
  name: string;
  old?: CaseStatus;
  new?: CaseStatus;
}

export interface ReportDiff {
  changes: Record<ChangeKind, CaseChange[]>;
  /** Cases that ran in both runs and changed in none of the ways above. */
  unchanged: number;
}

const failing = (s: CaseStatus): boolean => s === 'fail' || s === 'known-failure';
const notJudged = (s: CaseStatus): boolean => s === 'untested' || s === 'blocked';

/** Every case that ran, by name: a case asserting several requirements is listed under each. */
function casesThatRan(report: Report): Map<string, CaseStatus> {
  const byName = new Map<string, CaseStatus>();
  for (const requirement of report.requirements) {
    for (const c of requirement.cases) if (c.status !== 'skipped') byName.set(c.name, c.status);
  }
  return byName;
}

/** The kind of change from `before` to `after`, or undefined when the case did not change in a way that matters. */
function kindOf(before: CaseStatus | undefined, after: CaseStatus | undefined): ChangeKind | undefined {
  if (before === undefined) return after === undefined ? undefined : 'new';
  if (after === undefined) return 'gone';
  if (failing(after) && !failing(before)) return 'regressed';
  if (failing(before) && after === 'pass') return 'fixed';
  if (notJudged(after) && !notJudged(before)) return 'newlyUntested';
  if (notJudged(before) && after === 'pass') return 'newlyPassing';
  return undefined;
}

/** Compares two reports of the same role, case by case. */
export function diffReports(older: Report, newer: Report): ReportDiff {
  const before = casesThatRan(older);
  const after = casesThatRan(newer);
  const changes = Object.fromEntries(CHANGE_KINDS.map((k) => [k, [] as CaseChange[]])) as Record<
    ChangeKind,
    CaseChange[]
  >;
  let unchanged = 0;
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  for (const name of names) {
    const old = before.get(name);
    const now = after.get(name);
    const kind = kindOf(old, now);
    if (kind === undefined) unchanged += 1;
    else
      changes[kind].push({
        name,
        ...(old === undefined ? {} : { old }),
        ...(now === undefined ? {} : { new: now }),
      });
  }
  return { changes, unchanged };
}

/** The counts line: every kind, in order, then the unchanged cases. */
export function diffCounts(diff: ReportDiff): string {
  const parts = CHANGE_KINDS.map(
    (k) => `${diff.changes[k].length} ${CHANGE_HEADINGS[k].split(' (')[0]?.toLowerCase()}`,
  );
  return `${parts.join(', ')}; ${counted(diff.unchanged, 'case')} unchanged.`;
}

/** The diff as text: the counts first, then one line per changed case under its heading. */
export function renderDiff(diff: ReportDiff): string {
  const lines = [diffCounts(diff)];
  for (const kind of CHANGE_KINDS) {
    const list = diff.changes[kind];
    if (list.length === 0) continue;
    lines.push('', `${CHANGE_HEADINGS[kind]}: ${list.length}`);
    for (const c of list) lines.push(`  ${c.name}  ${c.old ?? 'not run'} -> ${c.new ?? 'not run'}`);
  }
  return lines.join('\n');
}
