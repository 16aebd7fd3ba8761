/**
 * What a failing run prints last: where its reports are, how to replay it, and how to rerun one
 * failing case, as command lines the user can paste. Both lines carry every option that changes a
 * verdict, with the values the run used (cli/options/replay-options.ts), the command's own options
 * and target as typed, and write their reports to a folder of their own.
 */
import { join } from 'node:path';
import { commonOptionWords, type ReplayContext } from '../options/replay-options.js';
import { COMMON_FLAGS, type ResolvedOptions } from '../options/resolve.js';
import type { Report } from '../report/report.js';

/** Where the replay and the rerun write their reports, inside the run's output folder. */
export const REPLAY_DIR = 'replay';
export const RERUN_DIR = 'rerun';

/** A shell word: bare when it is plain, single-quoted otherwise. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command's own options (before `--`) as typed: the common ones (and `--config`, whose values
 * the resolved options carry) left out with their values, by each flag's kind.
 */
export function ownOptions(head: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < head.length; i++) {
    const arg = head[i] as string;
    const spec = COMMON_FLAGS[arg.split('=')[0] as string];
    if (!spec) {
      kept.push(arg);
      continue;
    }
    if (spec.kind === 'boolean' || arg.includes('=')) continue;
    i++; // the value
    while (spec.kind === 'list' && i + 1 < head.length && !(head[i + 1] as string).startsWith('-')) i++;
  }
  return kept;
}

/**
 * A selector that selects exactly the case: its name, with each comma (which a list option would
 * split at) matched by `?` (one character within a name segment).
 */
export function caseSelector(name: string): string {
  return name.replace(/,/g, '?');
}

/** How the run went and what it was run with. */
export interface NextStepsRun {
  command: string;
  args: readonly string[];
  files: readonly string[];
  failed: boolean;
  options: ResolvedOptions;
  cwd: string;
}

/** The timeout scale the run's waits were applied at (the report's), or --timeout-scale. */
function appliedScale(report: Report, options: ResolvedOptions): number {
  const echoed = report.options as { effectiveTimeoutScale?: unknown } | undefined;
  const applied = echoed?.effectiveTimeoutScale;
  return typeof applied === 'number' && applied > 0 ? applied : options.timeoutScale;
}

/**
 * The closing lines of a run that did not pass (empty for one that did): the report files
 * written, the replay command (every option and selection of the run, with its seed), and a
 * rerun of its first failing case alone.
 */
export function nextSteps(report: Report, run: NextStepsRun): string[] {
  if (!run.failed) return [];
  const dashes = run.args.indexOf('--');
  const head = dashes === -1 ? run.args : run.args.slice(0, dashes);
  const trailing = dashes === -1 ? [] : run.args.slice(dashes);
  const own = ownOptions(head);
  const context = (folder: string): ReplayContext => ({
    options: run.options,
    appliedTimeoutScale: appliedScale(report, run.options),
    seed: report.seed,
    outputDir: join(run.options.outputDir, folder),
    cwd: run.cwd,
  });
  const line = (options: string[]) =>
    ['npx', 'ahp-conformance', run.command, ...own, ...options, ...trailing].map(shellWord).join(' ');
  const lines = ['', 'Next:'];
  for (const file of run.files) lines.push(`  read the report:     ${file}`);
  lines.push(`  replay this run:     ${line(commonOptionWords(context(REPLAY_DIR), false))}`);
  const failing = report.requirements.flatMap((r) => r.cases).find((c) => c.status === 'fail');
  if (failing) {
    const options = ['--only', caseSelector(failing.name), ...commonOptionWords(context(RERUN_DIR), true)];
    lines.push(`  rerun one failure:   ${line(options)}`);
  }
  return lines;
}
