/**
 * The problems of a report (`report.json`'s `problems`): the run's failing and blocked cases
 * grouped into distinct problems (`groupProblems`), each marked with the known-failures line that
 * covers it. A MUST problem no line covers fails the run, even when all it shows is blocked cases.
 */
import type { Problem } from '../../suites/common/index.js';
import type { BaselineSummary } from '../known-failures/apply.js';
import { problemsOf, type CoverableCase } from '../known-failures/cover.js';
import { isMandatory } from '../runner/case-result.js';
import { counted } from './count.js';

/** The known-failures line that covers a problem. */
export interface ProblemKnownFailure {
  line: number;
  pattern: string;
  reason: string;
}

/** One distinct problem as the report lists it. */
export interface ReportProblem extends Problem {
  /** Set when a known-failures line covers it: the run does not fail for it. */
  knownFailure?: ProblemKnownFailure;
}

/**
 * The problems of a run's cases (tolerated failures included), each with the line that covers
 * it: one that the baseline says covers its key, while none of its failing cases still fails.
 */
export function reportProblems(
  cases: readonly CoverableCase[],
  baseline: BaselineSummary | undefined,
): ReportProblem[] {
  const status = new Map(cases.map((c) => [c.name, c.status]));
  return problemsOf(cases).map((p): ReportProblem => {
    const entry = baseline?.entries.find((e) => e.problems.includes(p.key));
    const stillFails = p.cases.slice(0, p.failing).some((name) => status.get(name) === 'fail');
    if (entry === undefined || stillFails) return p;
    return { ...p, knownFailure: { line: entry.line, pattern: entry.pattern, reason: entry.reason } };
  });
}

/** The problems that fail the run: MUST ones no line covers (under `--strict`, every one). */
export function failingProblems(problems: readonly ReportProblem[], strict: boolean): ReportProblem[] {
  return problems.filter((p) => p.knownFailure === undefined && (strict || isMandatory(p.level)));
}

/** "2 distinct problems", saying how many known failures cover. */
export function problemsHeading(problems: readonly ReportProblem[]): string {
  const known = problems.filter((p) => p.knownFailure !== undefined).length;
  const note = known > 0 ? ` (${known} covered by known failures)` : '';
  return `${counted(problems.length, 'distinct problem')}${note}`;
}

/** What a problem touches: "explains 3 failing cases, blocks 12 cases". */
export function problemReach(p: ReportProblem): string {
  const blocked = p.cases.length - p.failing;
  const cases = (n: number) => counted(n, 'case');
  return [
    p.failing > 0 ? `explains ${cases(p.failing)} that failed` : '',
    blocked > 0 ? `blocks ${cases(blocked)}` : '',
  ]
    .filter((s) => s !== '')
    .join(', ');
}
