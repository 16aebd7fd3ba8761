/**
 * The report of a sharded run, from its shards' partial reports (already checked by
 * `checkShards`): every case from the shard that ran it, the cases the selection left out once,
 * the known-failures baseline summed over the shards, and the summary and verdicts recomputed as
 * an unsharded run would have computed them.
 */
import type { BaselineSummary } from '../known-failures/apply.js';
import type { CaseResult } from '../runner/case-result.js';
import type { PartialReport } from './merge-input.js';
import { buildReport, conformanceExitCode, type Report, type ReportCase } from './report.js';

/** The report's cases, each once (a case asserting several requirements is listed under each). */
function casesOf(report: Report): ReportCase[] {
  const seen = new Map<string, ReportCase>();
  for (const requirement of report.requirements) {
    for (const c of requirement.cases) if (!seen.has(c.name)) seen.set(c.name, c);
  }
  return [...seen.values()];
}

/**
 * A report case as the report builder takes it. The report does not carry a case's suite file
 * or profiles, and the builder reads neither; any field a report case has is kept as it is.
 */
function asCaseResult(c: ReportCase): CaseResult {
  return { file: '', profiles: [], ...c, errors: c.errors ?? [] };
}

/**
 * The baseline over every shard: tolerated failures and stale entries belong to the shard whose
 * case they concern, so they add up; an entry is unmatched only when it matched no case of the
 * whole run, which each shard judged against every collected case, so it is unmatched in all.
 */
function mergeBaselines(parts: readonly PartialReport[]): BaselineSummary | undefined {
  const baselines = parts.map((p) => p.report.baseline);
  const [first] = baselines;
  if (first === undefined || baselines.some((b) => b === undefined)) return undefined;
  const all = baselines as BaselineSummary[];
  const key = (u: { pattern: string; line: number }) => `${u.line}\0${u.pattern}`;
  return {
    file: first.file,
    tolerated: all.reduce((sum, b) => sum + b.tolerated, 0),
    stale: all.flatMap((b) => b.stale),
    unmatched: first.unmatched.filter((u) => all.every((b) => b.unmatched.some((v) => key(v) === key(u)))),
  };
}

/** The merged report and the exit code an unsharded run would have given (0 or 1). */
export function mergeReports(parts: readonly PartialReport[]): { report: Report; exitCode: 0 | 1 } {
  const [first] = parts;
  if (first === undefined) throw new Error('mergeReports needs at least one partial report');
  const cases = new Map<string, ReportCase>();
  // Every shard's own cases first, then the cases no shard ran (left out by --only/--skip).
  for (const part of parts) {
    const own = new Set(part.report.shard.cases);
    for (const c of casesOf(part.report)) if (own.has(c.name)) cases.set(c.name, c);
  }
  for (const part of parts) {
    for (const c of casesOf(part.report)) if (!cases.has(c.name)) cases.set(c.name, c);
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
    cases: [...cases.values()].map(asCaseResult),
    runErrors,
    ...(first.report.options !== undefined ? { options: first.report.options } : {}),
    ...(baseline ? { baseline } : {}),
  });
  const strict = (first.report.options as { strict?: unknown } | undefined)?.strict === true;
  return { report, exitCode: conformanceExitCode(report, strict) };
}
