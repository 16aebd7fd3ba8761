/**
 * The report of a sharded run, from its shards' partial reports (already checked by
 * `checkShards`): every case from the shard that ran it, the cases the selection left out once,
 * the known-failures baseline summed over the shards, and the problems, summary and verdicts
 * recomputed as an unsharded run would have computed them: problems are regrouped from the
 * cases' findings and blockers, so one defect seen in several shards is one problem.
 */
import type { Finding } from '../../suites/common/index.js';
import { judgeEntries, type BaselineSummary, type EntryOutcome } from '../known-failures/apply.js';
import type { CaseResult } from '../runner/case-result.js';
import type { PartialReport } from './merge-input.js';
import {
  buildReport,
  conformanceExitCode,
  type Report,
  type ReportCase,
  type ReportProblem,
} from './report.js';

/** The report's cases, each once (a case asserting several requirements is listed under each). */
function casesOf(report: Report): ReportCase[] {
  const seen = new Map<string, ReportCase>();
  for (const requirement of report.requirements) {
    for (const c of requirement.cases) if (!seen.has(c.name)) seen.set(c.name, c);
  }
  return [...seen.values()];
}

/**
 * The finding a problem stands for, as a blocked case carries it: the problem's key as its rule,
 * so that regrouping puts it under the same key.
 */
export function blockerOf(p: ReportProblem): Finding {
  return {
    rule: p.key,
    requirement: p.requirement,
    level: p.level,
    basis: {
      document: p.sentence.document,
      anchor: p.sentence.anchor,
      level: p.level,
      rule: p.sentence.text,
    },
    rank: p.rank,
    summary: p.summary,
    message: p.evidence.message,
  };
}

/**
 * A report case as the report builder takes it. The report does not carry a case's suite file
 * or profiles, and the builder reads neither; a blocked case gets back the finding of the
 * problem (in its own shard's list) that blocked it, and its problem ids are dropped, since the
 * merged report numbers its problems anew.
 */
function asCaseResult(c: ReportCase, problems: readonly ReportProblem[]): CaseResult {
  const { blockedBy, problem: _problem, ...rest } = c;
  const blocker = problems.find((p) => p.id === blockedBy);
  return {
    file: '',
    profiles: [],
    ...rest,
    errors: c.errors ?? [],
    ...(blocker !== undefined ? { blockedBy: blockerOf(blocker) } : {}),
  };
}

/**
 * The baseline over every shard: each line's failing and passing cases and the problems it
 * covers add up over the shards, and only then is a line judged stale or too broad, since a line
 * may match failing cases in one shard and passing ones in another.
 */
function mergeBaselines(parts: readonly PartialReport[]): BaselineSummary | undefined {
  const baselines = parts.map((p) => p.report.baseline);
  const [first] = baselines;
  if (first === undefined || baselines.some((b) => b === undefined)) return undefined;
  const all = baselines as BaselineSummary[];
  const entries = first.entries.map((e): EntryOutcome => {
    const same = all.flatMap((b) => b.entries.filter((o) => o.line === e.line && o.pattern === e.pattern));
    return {
      pattern: e.pattern,
      line: e.line,
      reason: e.reason,
      failing: same.reduce((sum, o) => sum + o.failing, 0),
      passing: same.flatMap((o) => o.passing),
      problems: [...new Set(same.flatMap((o) => o.problems))],
    };
  });
  return {
    file: first.file,
    tolerated: all.reduce((sum, b) => sum + b.tolerated, 0),
    ...judgeEntries(entries),
    entries,
  };
}

/** The merged report and the exit code an unsharded run would have given (0 or 1). */
export function mergeReports(parts: readonly PartialReport[]): { report: Report; exitCode: 0 | 1 } {
  const [first] = parts;
  if (first === undefined) throw new Error('mergeReports needs at least one partial report');
  const cases = new Map<string, CaseResult>();
  // Every shard's own cases first, then the cases no shard ran (left out by --only/--skip).
  for (const part of parts) {
    const own = new Set(part.report.shard.cases);
    for (const c of casesOf(part.report))
      if (own.has(c.name)) cases.set(c.name, asCaseResult(c, part.report.problems));
  }
  for (const part of parts) {
    for (const c of casesOf(part.report))
      if (!cases.has(c.name)) cases.set(c.name, asCaseResult(c, part.report.problems));
  }
  const starts = parts.map((p) => Date.parse(p.report.startedAt));
  const ends = parts.map((p, i) => (starts[i] as number) + p.report.durationMs);
  const started = Math.min(...starts);
  const runErrors = parts.flatMap((p) =>
    p.report.runErrors.map((e) => `shard ${p.report.shard.index}/${p.report.shard.count}: ${e}`),
  );
  const baseline = mergeBaselines(parts);
  const report = buildReport({
    version: first.report.tool.version,
    role: first.report.role,
    target: first.report.target,
    claim: first.report.claim,
    seed: first.report.seed,
    startedAt: new Date(started).toISOString(),
    durationMs: Math.max(0, Math.round(Math.max(...ends) - started)),
    cases: [...cases.values()],
    runErrors,
    ...(first.report.options !== undefined ? { options: first.report.options } : {}),
    ...(baseline ? { baseline } : {}),
  });
  const strict = (first.report.options as { strict?: unknown } | undefined)?.strict === true;
  return { report, exitCode: conformanceExitCode(report, strict) };
}
