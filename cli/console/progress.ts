/**
 * Console progress. On a terminal: one live line, rewritten in place, with cases done of the
 * total, failures so far and the time left; elsewhere (CI logs): that line as a line of its own
 * at every tenth of the run and whenever the output has been quiet for a few seconds. Either
 * way each failing case is printed as it finishes, with its first error lines, and startup steps
 * say what is starting. Generic over roles: it reads only `CaseResult`s.
 */
import type { Writable } from 'node:stream';
import { ProgressMeter } from './progress-meter.js';
import { findingKey, TARGET_STOPPED_PREFIX } from '../../suites/common/index.js';
import { isMandatory, type CaseResult } from '../runner/case-result.js';
import { counted } from '../report/count.js';

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

/** The longest the console stays quiet while something runs: past it, a line says what is going on. */
export const PROGRESS_MAX_SILENCE_MS = 5_000;
/** Off a terminal, a progress line at every such share of the cases. */
export const PROGRESS_STEP = 0.1;
/** How often the live line (and the quiet check) is refreshed. */
const TICK_MS = 1_000;
/** Quiet this long, the next tick prints: a tick late at most, the silence stays within the bound. */
const QUIET_LINE_AFTER_MS = PROGRESS_MAX_SILENCE_MS - TICK_MS;

/** Under a failing case: the target's stderr tail and the first frames the mock recorded. */
function diagnosticLines(result: CaseResult, options: ProgressOptions): string[] {
  const lines: string[] = [];
  if (result.stderrTail && result.stderrTail.length > 0) {
    lines.push(`         driver stderr during the case (last ${counted(result.stderrTail.length, 'line')}):`);
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
      lines.push(
        `         ... ${counted(errorLines.length - PROGRESS_ERROR_LINES, 'more line')} in the report`,
      );
    }
    const basis = result.findings?.[0]?.basis;
    // The sentence it breaks, on the first screen: the summary at the end says it again per problem.
    if (basis !== undefined && basis.document !== '') {
      lines.push(`         breaks ${basis.document}#${basis.anchor} (${basis.level}): ${basis.rule}`);
    }
    lines.push(...diagnosticLines(result, options));
  }
  return lines;
}

/**
 * The lines of a failing case whose every problem an earlier case already showed with its
 * evidence: one defect is printed once, and the cases it also fails are a line each.
 */
export function sameProblemLines(result: CaseResult, firstShownIn: string): string[] {
  const summary = result.findings?.[0]?.summary;
  return [
    `${statusLabel(result).padEnd(8)} ${result.name} (${result.durationMs} ms)`,
    `         the same problem as ${firstShownIn}${summary === undefined ? '' : ` (${summary})`}: evidence above`,
  ];
}

/** The lines after `--repeat`: each repeated case with its runs and verdict. */
export function repeatLines(cases: readonly CaseResult[]): string[] {
  const repeated = cases.filter((c) => c.repeat !== undefined);
  if (repeated.length === 0) return [];
  const lines = [`Repeated ${counted(repeated.length, 'timing case')}:`];
  for (const c of repeated) {
    const r = c.repeat as NonNullable<CaseResult['repeat']>;
    lines.push(
      `  ${r.verdict.toUpperCase().padEnd(6)} ${c.name}: ${counted(r.runs, 'run')}, ${r.passed} passed, ${r.failed} failed`,
    );
  }
  return lines;
}

/** How the console progress of a run writes and keeps time; tests pass their own. */
export interface ConsoleProgressOptions extends ProgressOptions {
  /** One live line rewritten in place (a terminal); default: whether `out` is a TTY. */
  live?: boolean;
  /** The terminal's width, for the live line; default: `out.columns`, else 80. */
  columns?: number;
  /** Expected duration per case name (recorded), for the time left. */
  weights?: ReadonlyMap<string, number>;
  /** Cases of the whole suite, as an estimate of the total until the run knows it. */
  expectedCases?: number;
  now?: () => number;
  /** Refresh on a timer (default); tests call `tick()` themselves. */
  timer?: boolean;
}

/** Progress hooks for a run, printing to `out`. */
export interface ConsoleProgress {
  /**
   * A startup step ("Starting the driver ..."): printed (unless `announce` is false: then only the
   * live line and a quiet spell show it), and kept alive while it lasts.
   */
  phase(text: string, announce?: boolean): void;
  /** A line of its own (the live line is cleared first and redrawn after). */
  line(text: string): void;
  onFilesCollected(count: number): void;
  /** The cases the run will judge, when a selection or shard knows them before it starts. */
  onPlanned(names: readonly string[]): void;
  /** A suite file is collected (`collected` of `files`, `cases` declared so far). */
  onCollected(files: number, collected: number, cases: number): void;
  onCase(result: CaseResult): void;
  /** Before an extra run of `--repeat`. */
  onRepeat(run: number, of: number, cases: number): void;
  /** After `--repeat`: each repeated case's verdict. */
  onRepeated(cases: readonly CaseResult[]): void;
  /** Refreshes the live line, or prints a line after a quiet spell (the timer calls it). */
  tick(): void;
  /** Clears the live line and stops the timer: what follows is the summary. */
  finish(): void;
  /** How many cases finished so far. */
  readonly finished: number;
}

/** The console progress of one run; `heading` names the run once its files are known. */
export function createConsoleProgress(
  out: Writable,
  heading?: string,
  options: ConsoleProgressOptions = {},
): ConsoleProgress {
  const now = options.now ?? (() => performance.now());
  const live = options.live ?? (out as { isTTY?: boolean }).isTTY === true;
  // A terminal that reports no width (0) gets the classic 80 columns.
  const columns = options.columns ?? ((out as { columns?: number }).columns || 80);
  let meter: ProgressMeter | undefined;
  let phase: { text: string; since: number } | undefined = { text: 'Starting', since: now() };
  let lastOutput = now();
  let nextStep = PROGRESS_STEP;
  let liveShown = false;
  let finished = false;

  const liveText = (): string => {
    if (phase || !meter) {
      const p = phase ?? { text: 'Starting', since: lastOutput };
      return `${p.text} (${Math.floor((now() - p.since) / 1000)} s)`;
    }
    const last = meter.lastCase;
    return `${meter.status(now())}${last === undefined ? '' : ` | ${last}`}`;
  };
  const clearLive = (): void => {
    if (liveShown) out.write('\r\x1b[2K');
    liveShown = false;
  };
  const drawLive = (): void => {
    if (!live || finished) return;
    const text = liveText();
    out.write(`\r\x1b[2K${text.length >= columns ? `${text.slice(0, Math.max(0, columns - 2))}…` : text}`);
    liveShown = true;
  };
  const write = (lines: readonly string[]): void => {
    if (lines.length === 0) return;
    clearLive();
    for (const l of lines) out.write(`${l}\n`);
    lastOutput = now();
    drawLive();
  };
  const statusLine = (): string => (meter ? `progress: ${meter.status(now())}` : '');
  const timer = options.timer === false ? undefined : setInterval(() => progress.tick(), TICK_MS);
  timer?.unref();

  /** Each problem (finding key) shown in full so far, with the case that showed it. */
  const shownProblems = new Map<string, string>();
  const linesOf = (result: CaseResult): string[] => {
    const keys = result.status === 'fail' ? (result.findings ?? []).map(findingKey) : [];
    const first =
      keys.length > 0 && keys.every((k) => shownProblems.has(k)) ? shownProblems.get(keys[0]!) : undefined;
    if (first !== undefined) return sameProblemLines(result, first);
    for (const key of keys) if (!shownProblems.has(key)) shownProblems.set(key, result.name);
    return progressLines(result, options);
  };

  const progress: ConsoleProgress = {
    phase(text, announce = true) {
      phase = { text, since: now() };
      if (announce) write([text]);
    },
    line(text) {
      write([text]);
    },
    onFilesCollected(count) {
      phase = undefined;
      meter ??= new ProgressMeter(now(), options.weights);
      if (options.expectedCases !== undefined) meter.estimate(options.expectedCases);
      if (heading !== undefined) write([`${heading} (${counted(count, 'suite file')})`]);
    },
    onPlanned(names) {
      meter ??= new ProgressMeter(now(), options.weights);
      meter.plan(names);
    },
    onCollected(files, collected, cases) {
      meter?.collecting(files, collected, cases);
    },
    onCase(result) {
      phase = undefined;
      meter ??= new ProgressMeter(now(), options.weights);
      meter.record(result);
      const lines = linesOf(result);
      // Passing, untested and known cases are counted; a failure (and a stop) is shown as it comes.
      const shown = result.status === 'fail' || (result.status === 'skipped' && lines.length > 0);
      if (shown) write(lines);
      const share = meter.share();
      if (!live && share !== undefined && share >= nextStep) {
        while (nextStep <= share) nextStep += PROGRESS_STEP;
        write([statusLine()]);
      } else if (!shown) drawLive();
    },
    onRepeat(run, of, cases) {
      meter = new ProgressMeter(now(), options.weights);
      meter.plan(Array.from({ length: cases }, () => ''));
      nextStep = PROGRESS_STEP;
      write([`Repeat run ${run} of ${of}: ${counted(cases, 'timing case')}`]);
    },
    onRepeated(cases) {
      write(repeatLines(cases));
    },
    tick() {
      if (finished) return;
      if (live) return drawLive();
      if (now() - lastOutput < QUIET_LINE_AFTER_MS) return;
      const p = phase ?? { text: 'Starting', since: lastOutput };
      write([
        phase || !meter
          ? `${p.text.replace(/[.:]$/, '')}: still going after ${Math.floor((now() - p.since) / 1000)} s`
          : statusLine(),
      ]);
    },
    finish() {
      if (timer) clearInterval(timer);
      clearLive();
      finished = true;
    },
    get finished() {
      return meter?.finished ?? 0;
    },
  };
  return progress;
}
