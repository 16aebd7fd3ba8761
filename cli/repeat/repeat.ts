import type { CaseResult, CaseStatus } from '../runner/case-result.js';

/**
 * Requirements whose checks race a reply against a deadline, a budget or a cancellation in real
 * time: on a loaded machine their outcome can flip, so `--repeat N` runs their cases N times.
 */
export const TIMING_REQUIREMENT_PREFIXES: readonly string[] = [
  'AHP-FAIL-002',
  'AHPX-DL-',
  'AHPX-INT-',
  'AHPX-BUD-',
  'AHPX-RETRY-002',
];

/** Case-name words that mark a timing race even under another requirement (a late reply, say). */
const TIMING_WORDS = /\b(?:deadline|late|timeout|budget|cancel\w*|interrupt\w*|hang|delay\w*)\b/i;

/** True for a case whose verdict depends on real-time ordering. */
export function isTimingCase(c: { name: string; requirements: readonly string[] }): boolean {
  return (
    c.requirements.some((id) => TIMING_REQUIREMENT_PREFIXES.some((p) => id.startsWith(p))) ||
    TIMING_WORDS.test(c.name)
  );
}

/** pass: every run passed; fail: every run failed; flaky: some of each. */
export type RepeatVerdict = 'pass' | 'fail' | 'flaky';

/** How a repeated case fared over its runs. */
export interface RepeatSummary {
  runs: number;
  passed: number;
  failed: number;
  verdict: RepeatVerdict;
}

/** The verdict over runs that reached a result; undefined when none did (all untested/skipped). */
export function repeatVerdict(statuses: readonly CaseStatus[]): RepeatSummary | undefined {
  const passed = statuses.filter((s) => s === 'pass').length;
  const failed = statuses.filter((s) => s === 'fail').length;
  if (passed + failed === 0) return undefined;
  const verdict: RepeatVerdict = failed === 0 ? 'pass' : passed === 0 ? 'fail' : 'flaky';
  return { runs: statuses.length, passed, failed, verdict };
}

/**
 * Folds the extra runs of timing cases into the first run's results. A flaky case is reported
 * `fail`: a harness that meets a deadline only sometimes does not meet it. Its errors are those of
 * the first failing run, and its note says how often it passed.
 */
export function mergeRepeats(
  first: readonly CaseResult[],
  extra: readonly (readonly CaseResult[])[],
): CaseResult[] {
  return first.map((c) => {
    // An extra run holds every case, those it did not select as skipped: only verdicts count.
    const again = extra
      .map((run) => run.find((r) => r.name === c.name && r.file === c.file))
      .filter((r): r is CaseResult => r !== undefined && (r.status === 'pass' || r.status === 'fail'));
    const runs = [c, ...again];
    if (runs.length < 2) return c;
    const summary = repeatVerdict(runs.map((r) => r.status));
    if (!summary) return c;
    const failing = runs.find((r) => r.status === 'fail');
    const note =
      summary.verdict === 'flaky'
        ? `flaky: passed ${summary.passed} of ${summary.passed + summary.failed} runs`
        : c.note;
    return {
      ...c,
      status: summary.verdict === 'pass' ? 'pass' : 'fail',
      errors: failing ? failing.errors : [],
      durationMs: Math.max(...runs.map((r) => r.durationMs)),
      repeat: summary,
      ...(note !== undefined ? { note } : {}),
    };
  });
}
