/**
 * The order people read a report in, shared by the HTML and Markdown reports: failures first,
 * grouped by the problem that explains them (most fundamental first, each problem's first
 * occurrence leading), then warnings, known failures, blocked and untested cases.
 */
import { uniqueCases } from './escape.js';
import type { Report, ReportCase } from './report.js';
import { caseVerdict } from './status.js';

export interface ReadingOrder {
  /** MUST failures (and SHOULD ones under --strict count too, but they are listed as warnings). */
  failures: ReportCase[];
  warnings: ReportCase[];
  known: ReportCase[];
  blocked: ReportCase[];
  untested: ReportCase[];
  /** The case a reader should see first: the first failure, else the first warning. */
  first?: ReportCase;
}

/** Cases ordered by their problem's place in the list, each problem's evidence case first. */
function byProblem(cases: readonly ReportCase[], report: Report): ReportCase[] {
  const rank = new Map<string, number>();
  report.problems.forEach((p, i) => {
    p.cases.forEach((name, j) => {
      if (!rank.has(name)) rank.set(name, i * 1_000_000 + (name === p.evidence.case ? -1 : j));
    });
  });
  const at = (c: ReportCase) => rank.get(c.name) ?? Number.MAX_SAFE_INTEGER;
  return cases
    .map((c, i) => ({ c, i }))
    .sort((a, b) => at(a.c) - at(b.c) || a.i - b.i)
    .map(({ c }) => c);
}

export function readingOrder(report: Report): ReadingOrder {
  const cases = uniqueCases(report.requirements);
  const pick = (test: (c: ReportCase) => boolean) => byProblem(cases.filter(test), report);
  const failures = pick((c) => caseVerdict(c) === 'fail');
  const warnings = pick((c) => caseVerdict(c) === 'warn');
  const first = failures[0] ?? warnings[0];
  return {
    failures,
    warnings,
    known: pick((c) => c.status === 'known-failure'),
    blocked: pick((c) => c.status === 'blocked'),
    untested: cases.filter((c) => c.status === 'untested'),
    ...(first ? { first } : {}),
  };
}

/** A stable anchor per case (case names hold characters ids should not). */
export function caseAnchors(report: Report): Map<string, string> {
  return new Map(uniqueCases(report.requirements).map((c, i) => [c.name, `case-${i + 1}`]));
}
