/**
 * What an interrupted run (SIGINT/SIGTERM) prints last: the summary of what finished, with no
 * verdict (the run did not judge everything), how much ran, and where the partial report is.
 */
import type { Report } from '../report/report.js';
import { NOT_RUN_INTERRUPTED } from '../runner/run-conformance.js';
import { counted } from '../report/count.js';

/** The lines after an interrupted run; `summary` is the console summary of its partial report. */
export function interruptedLines(report: Report, summary: string, files: readonly string[]): string[] {
  const cases = new Map(report.requirements.flatMap((r) => r.cases).map((c) => [c.name, c]));
  const notRun = [...cases.values()].filter((c) => c.note === NOT_RUN_INTERRUPTED).length;
  const kept = summary
    .split('\n')
    .filter((line) => !line.startsWith('Verdict:') && !line.startsWith('Report: '));
  return [
    ...kept,
    // Files vitest had not started are not in the report at all: no total is claimed.
    `Verdict: none: the run was interrupted after ${counted(cases.size - notRun, 'case')} finished; the partial report holds them (the others did not run).`,
    ...(files.length > 0
      ? files.map((file) => `Partial report: ${file}`)
      : ['No report file was asked for (--reporter json writes report.json, marked "interrupted").']),
  ];
}
