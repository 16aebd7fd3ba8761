/**
 * mutation/summary.json from a Stryker run: the score per target and per file, and every mutant the
 * suite did not detect, with where it is, its mutator and whether mutation/equivalent.json lists it
 * as equivalent (with the reason it cannot change anything a harness or backend shows).
 *
 * The score is Stryker's: detected (killed or timed out) over detected plus undetected (survived or
 * never reached), leaving out mutants that do not run (compile and runtime errors, ignored) and
 * the listed equivalents, which no test could detect.
 */
import { byKey, lookUp, type EquivalentMutant, type Position } from './equivalents.js';

/** The part of Stryker's MutantResult this reads. */
export interface MutantOutcome {
  id: string;
  fileName: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  /** 1-based; a live log written before it recorded ends has none. */
  location: { start: Position; end?: Position };
  killedBy?: string[];
}

export interface Undetected {
  file: string;
  line: number;
  column: number;
  mutator: string;
  replacement: string;
  /** Where the mutated code ends, when the report says. */
  end?: Position;
  status: 'Survived' | 'NoCoverage';
  /** The reason from mutation/equivalent.json, when it lists this mutant. */
  equivalent?: string;
}

export interface FileScore {
  mutants: number;
  detected: number;
  undetected: number;
  equivalent: number;
  score: number;
}

export interface RunTime {
  seconds: number;
  incremental: boolean;
}

export interface TargetSummary {
  description: string;
  /** How long the run that wrote this took, and whether it reused an incremental file. */
  run: RunTime;
  /** How long the last full run took (an incremental run keeps the figure of the full one). */
  fullRunSeconds?: number;
  /** Set when the run was cut off: the mutants it judged, of those it planned (when known). */
  partial?: { judged: number; planned?: number };
  /** In percent, two decimals. */
  score: number;
  totals: {
    mutants: number;
    killed: number;
    timeout: number;
    survived: number;
    noCoverage: number;
    equivalent: number;
    notRun: number;
  };
  files: Record<string, FileScore>;
  /** Survivors and unreached mutants: the equivalents first, then what a new case must kill. */
  undetected: Undetected[];
  /** mutation/equivalent.json entries of this target that matched no undetected mutant. */
  staleEquivalents: EquivalentMutant[];
}

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

/** Percent with two decimals; 100 when nothing could be detected. */
export function percent(detected: number, valid: number): number {
  return valid === 0 ? 100 : Math.floor((detected / valid) * 10_000) / 100;
}

export function summarize(
  description: string,
  run: RunTime,
  mutants: readonly MutantOutcome[],
  equivalents: readonly EquivalentMutant[],
  relative: (fileName: string) => string,
): TargetSummary {
  const reasons = byKey(equivalents);
  const used = new Set<EquivalentMutant>();
  const files: Record<string, FileScore> = {};
  const undetected: Undetected[] = [];
  const totals = {
    mutants: mutants.length,
    killed: 0,
    timeout: 0,
    survived: 0,
    noCoverage: 0,
    equivalent: 0,
    notRun: 0,
  };
  for (const m of mutants) {
    const file = relative(m.fileName);
    const score = (files[file] ??= { mutants: 0, detected: 0, undetected: 0, equivalent: 0, score: 0 });
    score.mutants += 1;
    if (m.status === 'Killed') totals.killed += 1;
    else if (m.status === 'Timeout') totals.timeout += 1;
    if (DETECTED.has(m.status)) score.detected += 1;
    else if (UNDETECTED.has(m.status)) {
      const { start, end } = m.location;
      const { line, column } = start;
      const replacement = m.replacement ?? '';
      const equivalent = lookUp(reasons, { file, start, end, mutator: m.mutatorName, replacement });
      if (equivalent !== undefined) {
        used.add(equivalent);
        score.equivalent += 1;
        totals.equivalent += 1;
      } else {
        score.undetected += 1;
        if (m.status === 'Survived') totals.survived += 1;
        else totals.noCoverage += 1;
      }
      undetected.push({
        file,
        line,
        column,
        mutator: m.mutatorName,
        replacement,
        ...(end === undefined ? {} : { end }),
        status: m.status as Undetected['status'],
        ...(equivalent === undefined ? {} : { equivalent: equivalent.reason }),
      });
    } else totals.notRun += 1;
  }
  for (const score of Object.values(files))
    score.score = percent(score.detected, score.detected + score.undetected);
  const detected = totals.killed + totals.timeout;
  undetected.sort(
    (a, b) =>
      Number(a.equivalent === undefined) - Number(b.equivalent === undefined) ||
      a.file.localeCompare(b.file) ||
      a.line - b.line ||
      a.column - b.column,
  );
  const targetFiles = new Set(Object.keys(files));
  return {
    description,
    run,
    score: percent(detected, detected + totals.survived + totals.noCoverage),
    totals,
    files: Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b))),
    undetected,
    staleEquivalents: equivalents.filter((e) => targetFiles.has(e.file) && !used.has(e)),
  };
}

/** The console lines of a summary: time, score, and what the suite still misses. */
export function summaryLines(name: string, summary: TargetSummary): string[] {
  const minutes = Math.floor(summary.run.seconds / 60);
  const seconds = Math.round(summary.run.seconds % 60);
  const { totals } = summary;
  const lines = [
    `mutation ${name}: score ${summary.score.toFixed(2)}% (${summary.description})`,
    `  ${totals.killed} killed, ${totals.timeout} timed out, ${totals.survived} survived, ${totals.noCoverage} not reached, ${totals.equivalent} equivalent, ${totals.notRun} not run; ${minutes} min ${seconds} s${summary.run.incremental ? ' (incremental)' : ''}`,
  ];
  if (summary.partial !== undefined) {
    const of = summary.partial.planned === undefined ? '' : ` of ${summary.partial.planned}`;
    lines.push(`  partial: ${summary.partial.judged}${of} mutants judged before the run was cut off`);
  }
  for (const [file, score] of Object.entries(summary.files)) {
    lines.push(
      `  ${score.score.toFixed(2).padStart(6)}%  ${file} (${score.detected}/${score.detected + score.undetected})`,
    );
  }
  const open = summary.undetected.filter((u) => u.equivalent === undefined);
  if (open.length > 0) lines.push(`  undetected and not listed as equivalent (${open.length}):`);
  for (const u of open)
    lines.push(`    ${u.file}:${u.line}:${u.column} ${u.mutator} -> ${oneLine(u.replacement)} (${u.status})`);
  for (const e of summary.staleEquivalents) {
    lines.push(
      `  stale entry in mutation/equivalent.json (no such undetected mutant now): ${e.file}:${e.line}:${e.column} ${e.mutator}`,
    );
  }
  return lines;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}

/** A StrykerJS JSON report (the mutation-testing-report schema), as far as the summary reads it. */
export interface StrykerReport {
  files: Record<string, { mutants: Omit<MutantOutcome, 'fileName'>[] }>;
}

/** The mutants of a StrykerJS JSON report, with file names as the report keys them. */
export function outcomesOfReport(report: StrykerReport): MutantOutcome[] {
  return Object.entries(report.files).flatMap(([fileName, file]) =>
    file.mutants.map((m) => ({ ...m, fileName })),
  );
}

/** A live log (live-log.ts): the planned count, when its first line has it, and each verdict. */
export function outcomesOfLiveLog(text: string): { planned?: number; mutants: MutantOutcome[] } {
  let planned: number | undefined;
  const mutants: MutantOutcome[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const entry = JSON.parse(line) as Record<string, unknown>;
    if (typeof entry.planned === 'number') {
      planned = entry.planned;
      continue;
    }
    mutants.push({
      id: String(mutants.length),
      fileName: String(entry.file),
      mutatorName: String(entry.mutator),
      ...(typeof entry.replacement === 'string' ? { replacement: entry.replacement } : {}),
      status: String(entry.status),
      location: {
        start: { line: Number(entry.line), column: Number(entry.column) },
        ...(typeof entry.endLine === 'number' && typeof entry.endColumn === 'number'
          ? { end: { line: entry.endLine, column: entry.endColumn } }
          : {}),
      },
    });
  }
  return { ...(planned === undefined ? {} : { planned }), mutants };
}
