import type { CaseStatus } from '../runner/case-result.js';
import { selects, type SelectableCase } from '../selection/selector.js';
import type { KnownFailureEntry, KnownFailures } from './parse.js';

/** What the baseline did to a run: stale entries and patterns matching nothing fail it. */
export interface BaselineSummary {
  file: string;
  /** Listed cases that failed, now reported `known-failure`. */
  tolerated: number;
  /** Listed cases that passed: the baseline is out of date. */
  stale: { case: string; pattern: string; line: number }[];
  /** Patterns that match no case at all. */
  unmatched: { pattern: string; line: number }[];
}

interface Judged extends SelectableCase {
  status: CaseStatus;
  note?: string;
}

/**
 * Applies a baseline to a run's cases. A listed failure becomes `known-failure` (with the reason
 * as its note) and no longer fails the run; a listed pass is stale and a pattern that matches no
 * case of `universe` (every collected case, so entries for cases outside `--only` still count)
 * is unmatched; both fail the run, so a baseline cannot rot silently.
 */
export function applyKnownFailures<T extends Judged>(
  cases: readonly T[],
  baseline: KnownFailures,
  universe: readonly SelectableCase[] = cases,
): { cases: (T & { note?: string })[]; summary: BaselineSummary } {
  const summary: BaselineSummary = { file: baseline.file, tolerated: 0, stale: [], unmatched: [] };
  for (const entry of baseline.entries) {
    const inUniverse = universe.some((c) => selects(entry.selector, c));
    if (!inUniverse && !cases.some((c) => selects(entry.selector, c)))
      summary.unmatched.push({ pattern: entry.pattern, line: entry.line });
  }
  const out = cases.map((c): T & { note?: string } => {
    const entry: KnownFailureEntry | undefined = baseline.entries.find((e) => selects(e.selector, c));
    if (!entry) return c;
    if (c.status === 'fail') {
      summary.tolerated++;
      return {
        ...c,
        status: 'known-failure' as const,
        note: `known failure (line ${entry.line}): ${entry.reason}`,
      };
    }
    if (c.status === 'pass') summary.stale.push({ case: c.name, pattern: entry.pattern, line: entry.line });
    return c;
  });
  return { cases: out, summary };
}

/** True when the baseline itself fails the run. */
export function baselineFails(summary: BaselineSummary | undefined): boolean {
  return summary !== undefined && (summary.stale.length > 0 || summary.unmatched.length > 0);
}
