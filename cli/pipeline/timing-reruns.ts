/**
 * Runs of timing cases beyond the first: `--repeat N` runs every timing case that reached a
 * verdict N times; without it, a timing case that failed runs once more, and one that passes
 * then is reported flaky. Flaky fails the run either way (a harness that meets a deadline only
 * sometimes does not meet it): the rerun only tells a verdict the machine's timing flipped from
 * one that holds, and the console and the report say which.
 */
import type { ResolvedOptions } from '../options/resolve.js';
import { isTimingCase, mergeRepeats } from '../repeat/repeat.js';
import type { CaseResult } from '../runner/case-result.js';
import type { ConformanceRun, ConformanceRunOptions } from '../runner/run-conformance.js';
import { namePatternFor } from '../selection/select.js';
import { filesOf } from './unselected.js';
import { counted } from '../report/count.js';

/**
 * More failing timing cases than this are a harness that does not keep its deadlines, not a
 * machine's timing: they are not run again.
 */
export const AUTO_RERUN_LIMIT = 20;

/** The note of a timing case that failed, then passed when run again. */
export const FLIPPED_NOTE =
  'flaky: failed, then passed when run again; a timing verdict that flips fails the run (on a busy machine, try --timeout-scale)';

/** What the extra runs need from the run they follow. */
export interface RerunContext {
  runner: (options: ConformanceRunOptions) => Promise<ConformanceRun>;
  /** The first run's options (include, provide, signal). */
  base: ConformanceRunOptions;
  options: Pick<ResolvedOptions, 'repeat'>;
  /** True once the run was interrupted: no further run starts. */
  interrupted: () => boolean;
  onPhase?: (text: string) => void;
  onRepeat?: (run: number, of: number, cases: number) => void;
  onRepeated?: (cases: readonly CaseResult[]) => void;
}

function runAgain(ctx: RerunContext, cases: readonly CaseResult[]): Promise<ConformanceRun> {
  return ctx.runner({
    ...ctx.base,
    include: filesOf(cases),
    testNamePattern: namePatternFor(cases.map((c) => c.name)),
  });
}

/** `--repeat N`: the timing cases that reached a verdict, N - 1 more times, folded into one verdict each. */
export async function repeatTimingCases(
  cases: CaseResult[],
  ctx: RerunContext,
): Promise<{ cases: CaseResult[]; runErrors: string[] }> {
  const timing = cases.filter((c) => (c.status === 'pass' || c.status === 'fail') && isTimingCase(c));
  if (ctx.options.repeat <= 1 || timing.length === 0) return { cases, runErrors: [] };
  const extra: CaseResult[][] = [];
  const runErrors: string[] = [];
  for (let run = 2; run <= ctx.options.repeat && !ctx.interrupted(); run++) {
    ctx.onRepeat?.(run, ctx.options.repeat, timing.length);
    const again = await runAgain(ctx, timing);
    extra.push(again.cases);
    runErrors.push(...again.runErrors);
  }
  const merged = mergeRepeats(cases, extra);
  ctx.onRepeated?.(merged.filter((c) => c.repeat !== undefined));
  return { cases: merged, runErrors };
}

/** Without `--repeat`: each failing timing case once more; one that passes then is flaky (and still fails). */
export async function rerunFailingTimingCases(
  cases: CaseResult[],
  ctx: RerunContext,
): Promise<{ cases: CaseResult[]; runErrors: string[] }> {
  const failing = cases.filter((c) => c.status === 'fail' && c.repeat === undefined && isTimingCase(c));
  if (ctx.options.repeat > 1 || failing.length === 0 || ctx.interrupted()) return { cases, runErrors: [] };
  if (failing.length > AUTO_RERUN_LIMIT) {
    ctx.onPhase?.(
      `${failing.length} timing cases failed, more than ${AUTO_RERUN_LIMIT}: that is the harness, not the machine's timing, so they are not run again.`,
    );
    return { cases, runErrors: [] };
  }
  ctx.onPhase?.(
    `Running the ${counted(failing.length, 'failing timing case')} once more: one whose verdict flips is reported flaky.`,
  );
  const again = await runAgain(ctx, failing);
  const names = new Set(failing.map((c) => c.name));
  const merged = mergeRepeats(cases, [again.cases]).map((c) =>
    names.has(c.name) && c.repeat?.verdict === 'flaky' ? { ...c, note: FLIPPED_NOTE } : c,
  );
  ctx.onRepeated?.(merged.filter((c) => names.has(c.name) && c.repeat !== undefined));
  return { cases: merged, runErrors: again.runErrors };
}
