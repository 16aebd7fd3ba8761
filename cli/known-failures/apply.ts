/**
 * Applying a known-failures baseline to a run, case by case: a listed failure is tolerated, and
 * each line is judged on every case it matches. A line is stale only when none of its cases
 * fails any more (removing it then tolerates nothing); a line whose cases partly pass is kept and
 * listed with the passing ones, so that its pattern can be narrowed. A line that names a
 * problem's requirement covers that problem: the cases it explains or blocks (see `cover.ts`).
 */
import type { CaseStatus } from '../runner/case-result.js';
import { selects, type SelectableCase } from '../selection/selector.js';
import { coverProblems, knownFailureNote, type CoverableCase } from './cover.js';
import type { KnownFailures } from './parse.js';

/** What one line of the baseline did in this run. */
export interface EntryOutcome {
  pattern: string;
  line: number;
  reason: string;
  /** How many cases it matches that failed (tolerated now, by it or by an earlier line). */
  failing: number;
  /** The cases it matches that passed. */
  passing: string[];
  /** The problems it covers (their grouping keys): the run does not fail for them. */
  problems: string[];
  /** True when it matches selected cases another shard runs: only `merge` can call it stale. */
  elsewhere?: boolean;
}

/** A line judged on its cases: stale (remove it) or partly passing (narrow it). */
export interface EntryVerdict {
  pattern: string;
  line: number;
  passing: string[];
}

/** What the baseline did to a run; a stale line fails it, so a baseline cannot rot silently. */
export interface BaselineSummary {
  file: string;
  /** Listed cases that failed, now reported `known-failure`. */
  tolerated: number;
  /** Lines none of whose cases fails any more, though some pass: remove them. */
  stale: EntryVerdict[];
  /** Lines that still tolerate failures but match passing cases too: narrow their pattern. */
  narrow: EntryVerdict[];
  /** Every line's outcome, in file order (what `merge` sums over shards). */
  entries: EntryOutcome[];
}

interface Judged extends SelectableCase, CoverableCase {
  status: CaseStatus;
  note?: string;
}

/** A failing case as the baseline shows it (what progress prints while the run goes). */
export function toleratedCase<T extends Judged>(c: T, baseline: KnownFailures): T {
  if (c.status !== 'fail') return c;
  const entry = baseline.entries.find((e) => selects(e.selector, c));
  return entry ? { ...c, status: 'known-failure', note: knownFailureNote(entry) } : c;
}

/** Stale and narrow lines from the outcomes (a line matching other shards' cases is never stale). */
export function judgeEntries(entries: readonly EntryOutcome[]): Pick<BaselineSummary, 'stale' | 'narrow'> {
  const verdict = (e: EntryOutcome): EntryVerdict => ({
    pattern: e.pattern,
    line: e.line,
    passing: e.passing,
  });
  const holds = (e: EntryOutcome) => e.failing > 0 || e.problems.length > 0;
  return {
    stale: entries.filter((e) => !holds(e) && e.passing.length > 0 && e.elsewhere !== true).map(verdict),
    narrow: entries.filter((e) => holds(e) && e.passing.length > 0).map(verdict),
  };
}

/**
 * Applies a baseline to a run's cases: every failure a line matches becomes `known-failure` (the
 * first matching line's reason in its note), then the problems a line covers (`coverProblems`).
 * `elsewhere` holds the selected cases this run does not judge (another shard's share).
 */
export function applyKnownFailures<T extends Judged>(
  cases: readonly T[],
  baseline: KnownFailures,
  elsewhere: readonly SelectableCase[] = [],
): { cases: T[]; summary: BaselineSummary } {
  const outcomes = baseline.entries.map((e): EntryOutcome => ({
    pattern: e.pattern,
    line: e.line,
    reason: e.reason,
    failing: 0,
    passing: [],
    problems: [],
    ...(elsewhere.some((c) => selects(e.selector, c)) ? { elsewhere: true } : {}),
  }));
  const tolerated = cases.map((c) => {
    baseline.entries.forEach((e, i) => {
      if (!selects(e.selector, c)) return;
      const outcome = outcomes[i] as EntryOutcome;
      if (c.status === 'fail') outcome.failing++;
      if (c.status === 'pass') outcome.passing.push(c.name);
    });
    return toleratedCase(c, baseline);
  });
  const covered = coverProblems(tolerated, baseline.entries);
  covered.covers.forEach((keys, i) => (outcomes[i] as EntryOutcome).problems.push(...keys));
  const summary: BaselineSummary = {
    file: baseline.file,
    tolerated: covered.cases.filter((c) => c.status === 'known-failure').length,
    ...judgeEntries(outcomes),
    entries: outcomes,
  };
  return { cases: covered.cases, summary };
}

/** True when the baseline itself fails the run: a line that no longer matches any failure. */
export function baselineFails(summary: BaselineSummary | undefined): boolean {
  return summary !== undefined && summary.stale.length > 0;
}
