/**
 * What a suite run prints after its reports are written, for `harness` and `backend` alike: the
 * summary and the next steps, or, for an interrupted run, what finished and where the partial
 * report is. Under --quiet only the report files are named (and an interrupt, on stderr).
 */
import { interruptedExitCode, writeLine, type CliIo } from '../io.js';
import type { ResolvedOptions } from '../options/resolve.js';
import type { Report } from '../report/report.js';
import { interruptedLines } from './interrupted.js';
import { nextSteps } from './next-steps.js';
import { consoleView } from './run-console.js';
import { renderConsoleSummary } from './summary.js';
import { counted } from '../report/count.js';

/** How the run went and was asked for. */
export interface EpilogueRun {
  command: 'harness' | 'backend';
  args: readonly string[];
  files: readonly string[];
  quiet: boolean;
  strict: boolean;
  /** The run's verdict fails it (exit 1 unless it stopped). */
  failed: boolean;
  /** The options the run resolved (the next steps carry them). */
  options: ResolvedOptions;
  /** The folder the command ran in (paths in the next steps are shown from it). */
  cwd: string;
}

/** The timing cases whose verdict flipped between runs: named after the summary, since they fail the run. */
export function flakyLines(report: Report): string[] {
  const names = [
    ...new Set(
      report.requirements.flatMap((r) =>
        r.cases.filter((c) => c.repeat?.verdict === 'flaky').map((c) => c.name),
      ),
    ),
  ];
  if (names.length === 0) return [];
  return [
    `Flaky: ${counted(names.length, 'timing case')} passed on one run and failed on another; ${names.length === 1 ? 'it fails' : 'they fail'} the run (a busy machine: --timeout-scale):`,
    ...names.map((n) => `  ${n}`),
  ];
}

/** Prints the epilogue; returns the exit code when the run was interrupted, else undefined. */
export function printEpilogue(
  io: Pick<CliIo, 'stdout' | 'stderr' | 'signal'>,
  report: Report,
  run: EpilogueRun,
): number | undefined {
  const summary = (): string =>
    renderConsoleSummary(consoleView(report), { strict: run.strict, files: run.files });
  if (report.interrupted === true) {
    for (const line of interruptedLines(report, summary(), run.files))
      writeLine(run.quiet ? io.stderr : io.stdout, line);
    return interruptedExitCode(io.signal);
  }
  if (run.quiet) {
    for (const file of run.files) writeLine(io.stdout, `Report: ${file}`);
    return undefined;
  }
  writeLine(io.stdout, summary());
  for (const line of flakyLines(report)) writeLine(io.stdout, line);
  // A stopped run's next step is the driver, which the stop sentence names.
  const next = report.stopped ? [] : nextSteps(report, run);
  if (next.length > 0) writeLine(io.stdout, next.join('\n'));
  return undefined;
}
