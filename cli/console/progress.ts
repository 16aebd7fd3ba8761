/**
 * Console progress: one line per case as it finishes, with the failure's first lines under a
 * failing case. Generic over roles: it reads only `CaseResult`s.
 */
import type { Writable } from 'node:stream';
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

/** The lines printed for one finished case. */
export function progressLines(result: CaseResult): string[] {
  const label = statusLabel(result).padEnd(8);
  if (result.status === 'skipped') return [];
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
  }
  return lines;
}

/** Progress hooks for a run, printing to `out`. */
export interface ConsoleProgress {
  onFilesCollected(count: number): void;
  onCase(result: CaseResult): void;
  /** How many cases finished so far. */
  readonly finished: number;
}

/** Prints each case as it finishes; skipped (unselected) cases stay quiet. */
export function createConsoleProgress(out: Writable, heading?: string): ConsoleProgress {
  let finished = 0;
  return {
    onFilesCollected(count) {
      if (heading !== undefined) out.write(`${heading} (${count} suite file(s))\n`);
    },
    onCase(result) {
      finished += 1;
      for (const line of progressLines(result)) out.write(`${line}\n`);
    },
    get finished() {
      return finished;
    },
  };
}
