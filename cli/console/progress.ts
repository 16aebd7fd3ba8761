/**
 * Console progress: one line per case as it finishes, with the failure's first lines under a
 * failing case. Generic over roles: it reads only `CaseResult`s.
 */
import type { Writable } from 'node:stream';
import { TARGET_STOPPED_PREFIX } from '../../suites/kit/case-meta.js';
import { isMandatory, type CaseResult } from '../runner/case-result.js';

/** Lines of a failure message shown under a failing case; the report holds the rest. */
export const PROGRESS_ERROR_LINES = 4;

/** The label of a case outcome: SHOULD failures are warnings, not failures. */
export function statusLabel(result: Pick<CaseResult, 'status' | 'level'>): string {
  if (result.status === 'fail') return isMandatory(result.level) ? 'FAIL' : 'WARN';
  if (result.status === 'pass') return 'PASS';
  if (result.status === 'untested') return 'UNTESTED';
  if (result.status === 'known-failure') return 'KNOWN';
  return 'SKIP';
}

/** Options of the progress lines. */
export interface ProgressOptions {
  /** Where the full wire transcript of a failing case is (a report file, or how to get one). */
  transcriptAt?: string;
}

/** Under a failing case: the target's stderr tail and the first frames the mock recorded. */
function diagnosticLines(result: CaseResult, options: ProgressOptions): string[] {
  const lines: string[] = [];
  if (result.stderrTail && result.stderrTail.length > 0) {
    lines.push(`         driver stderr during the case (last ${result.stderrTail.length} line(s)):`);
    for (const l of result.stderrTail) lines.push(`           | ${l}`);
  }
  if (result.frames && result.frames.length > 0) {
    const total = result.framesTotal ?? result.frames.length;
    lines.push(`         frames the mock recorded (${total} in all):`);
    for (const l of result.frames) lines.push(`           ${l}`);
    const where = options.transcriptAt ?? 'the JSON and HTML reports (--reporter json|html)';
    lines.push(`           full transcript: the case's evidence in ${where}`);
  }
  return lines;
}

/** The lines printed for one finished case. */
export function progressLines(result: CaseResult, options: ProgressOptions = {}): string[] {
  const label = statusLabel(result).padEnd(8);
  if (result.status === 'skipped') {
    // The case during which the target stopped: not judged, and the reason the run ends.
    if (!result.note?.startsWith(TARGET_STOPPED_PREFIX)) return [];
    return [`${'STOPPED'.padEnd(8)} ${result.name} (${result.durationMs} ms)`, `         ${result.note}`];
  }
  const lines = [`${label} ${result.name} (${result.durationMs} ms)`];
  if (result.status === 'untested' && result.note) lines.push(`         ${result.note}`);
  if (result.status === 'fail') {
    const errorLines = result.errors
      .join('\n')
      .split('\n')
      .filter((l) => l.trim() !== '');
    for (const line of errorLines.slice(0, PROGRESS_ERROR_LINES)) lines.push(`         ${line}`);
    if (errorLines.length > PROGRESS_ERROR_LINES) {
      lines.push(`         ... ${errorLines.length - PROGRESS_ERROR_LINES} more line(s) in the report`);
    }
    lines.push(...diagnosticLines(result, options));
  }
  return lines;
}

/** The lines after `--repeat`: each repeated case with its runs and verdict. */
export function repeatLines(cases: readonly CaseResult[]): string[] {
  const repeated = cases.filter((c) => c.repeat !== undefined);
  if (repeated.length === 0) return [];
  const lines = [`Repeated ${repeated.length} timing case(s):`];
  for (const c of repeated) {
    const r = c.repeat as NonNullable<CaseResult['repeat']>;
    lines.push(
      `  ${r.verdict.toUpperCase().padEnd(6)} ${c.name}: ${r.runs} runs, ${r.passed} passed, ${r.failed} failed`,
    );
  }
  return lines;
}

/** Progress hooks for a run, printing to `out`. */
export interface ConsoleProgress {
  onFilesCollected(count: number): void;
  onCase(result: CaseResult): void;
  /** Before an extra run of `--repeat`. */
  onRepeat(run: number, of: number, cases: number): void;
  /** After `--repeat`: each repeated case's verdict. */
  onRepeated(cases: readonly CaseResult[]): void;
  /** How many cases finished so far. */
  readonly finished: number;
}

/** Prints each case as it finishes; skipped (unselected) cases stay quiet. */
export function createConsoleProgress(
  out: Writable,
  heading?: string,
  options: ProgressOptions = {},
): ConsoleProgress {
  let finished = 0;
  return {
    onFilesCollected(count) {
      if (heading !== undefined) out.write(`${heading} (${count} suite file(s))\n`);
    },
    onCase(result) {
      finished += 1;
      for (const line of progressLines(result, options)) out.write(`${line}\n`);
    },
    onRepeat(run, of, cases) {
      out.write(`Repeat run ${run} of ${of}: ${cases} timing case(s)\n`);
    },
    onRepeated(cases) {
      for (const line of repeatLines(cases)) out.write(`${line}\n`);
    },
    get finished() {
      return finished;
    },
  };
}
