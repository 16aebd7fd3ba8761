/**
 * What a profiling run says about the cases that did not pass, and its exit code: a failure or a
 * run error fails it; an untested, blocked or skipped case is listed with its reason and fails
 * nothing (the reference harness has cases it cannot show, and says why).
 */
import type { CaseResult } from '../../cli/runner/case-result.js';

/** The lines about the cases that did not pass, and the exit code (1 only for failures and run errors). */
export function profileOutcome(
  cases: readonly CaseResult[],
  runErrors: readonly string[],
): { lines: string[]; exitCode: 0 | 1 } {
  const failed = cases.filter((c) => c.status === 'fail');
  const other = cases.filter((c) => c.status !== 'pass' && c.status !== 'fail');
  const lines = [
    `cases ${cases.length}, failed ${failed.length}, not judged ${other.length}, run errors ${runErrors.length}`,
    ...failed.map((c) => `  fail ${c.name}: ${c.errors.join(' | ').slice(0, 300)}`),
    ...other.map((c) => `  ${c.status} ${c.name}: ${c.note ?? '(no reason given)'}`),
    ...runErrors.map((e) => `  run error: ${e.slice(0, 300)}`),
  ];
  return { lines, exitCode: failed.length === 0 && runErrors.length === 0 ? 0 : 1 };
}
