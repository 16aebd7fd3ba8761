/**
 * The console side of a suite run, shared by `harness` and `backend`: the progress (unless
 * --quiet) with its hooks into the run, and the report as the console summary shows it.
 */
import type { Writable } from 'node:stream';
import type { SuiteRunPlan } from '../pipeline/suite-run.js';
import { NOT_SELECTED } from '../pipeline/unselected.js';
import type { Report } from '../report/report.js';
import type { CaseResult } from '../runner/case-result.js';
import { shardProgressLine } from '../shard/plan.js';
import { createConsoleProgress, type ConsoleProgress, type ConsoleProgressOptions } from './progress.js';

/** The hooks of `SuiteRunPlan` that progress feeds on. */
export type ProgressHooks = Pick<
  SuiteRunPlan,
  | 'onCase'
  | 'onFilesCollected'
  | 'onPlanned'
  | 'onCollected'
  | 'onPhase'
  | 'onShardPlanned'
  | 'onRepeat'
  | 'onRepeated'
>;

/** What a command prints while it runs: lines, startup steps, and the run's progress. */
export interface RunConsole {
  /** A line of its own (nothing under --quiet). */
  say(text: string): void;
  /** A startup step, kept alive while it lasts (nothing under --quiet). */
  phase(text: string): void;
  /** The plan's progress hooks; `redact` hides secrets in what a case result shows. */
  hooks(redact?: (result: CaseResult) => CaseResult): ProgressHooks;
  /** Ends the progress before the summary. */
  finish(): void;
}

/** The console of one run: progress on `out`, or silence under `quiet` (shard lines still print). */
export function runConsole(
  out: Writable,
  options: { quiet: boolean; heading: string } & ConsoleProgressOptions,
): RunConsole {
  const progress: ConsoleProgress | undefined = options.quiet
    ? undefined
    : createConsoleProgress(out, options.heading, options);
  return {
    say: (text) => progress?.line(text),
    phase: (text) => progress?.phase(text),
    hooks(redact = (r) => r) {
      const shardLine: ProgressHooks['onShardPlanned'] = (shard, cases, selected) => {
        const line = shardProgressLine(shard, cases, selected);
        if (progress) progress.line(line);
        else out.write(`${line}\n`);
      };
      if (!progress) return { onShardPlanned: shardLine };
      return {
        onShardPlanned: shardLine,
        onCase: (c) => progress.onCase(redact(c)),
        onFilesCollected: (n) => progress.onFilesCollected(n),
        onPlanned: (names) => progress.onPlanned(names),
        onCollected: (files, collected, cases) => progress.onCollected(files, collected, cases),
        onPhase: (text, announce) => progress.phase(text, announce),
        onRepeat: (run, of, n) => progress.onRepeat(run, of, n),
        onRepeated: (cases) => progress.onRepeated(cases),
      };
    },
    finish: () => progress?.finish(),
  };
}

/**
 * The report as the console summary shows it: requirements none of whose cases the selection
 * chose are left out (a `--only` run would otherwise list dozens of SKIP rows); the totals stay.
 */
export function consoleView(report: Report): Report {
  const requirements = report.requirements.filter((r) => r.cases.some((c) => c.note !== NOT_SELECTED));
  return requirements.length === report.requirements.length ? report : { ...report, requirements };
}
