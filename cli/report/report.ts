import type { JsonValue } from '../../protocol/json.js';
import { requirementById, type RequirementLevel } from '../../protocol/requirements.js';
import { claimCoverage, type ProfileCoverage } from '../../suites/coverage/index.js';
import { baselineFails, type BaselineSummary } from '../known-failures/apply.js';
import type { RepeatSummary } from '../repeat/repeat.js';
import type { Finding, TargetStopped } from '../../suites/common/index.js';
import { isMandatory, type CaseResult, type CaseStatus } from '../runner/case-result.js';
import type { ShardRecord } from '../shard/record.js';
import { failingProblems, reportProblems, type ReportProblem } from './report-problems.js';
import { requirementStatus, type ReportedStatus } from './status.js';

export { requirementStatus } from './status.js';
export type { ReportProblem } from './report-problems.js';

/** The claim a report states (AHP-CORE-001): role, bindings and profiles under test. */
export interface Claim {
  role: 'harness' | 'backend';
  bindings: string[];
  profiles: string[];
  /**
   * Per claimed profile, which of its requirements (those binding the role) the run checked, left
   * untested or excludes, each with its reason: set by `buildReport`, so that no claim rests on
   * requirements nobody checked.
   */
  coverage?: ProfileCoverage[];
}

export interface ReportCase {
  name: string;
  /** Every requirement the case asserts (it is listed under each). */
  requirements: string[];
  level: RequirementLevel;
  status: CaseStatus;
  durationMs: number;
  transports: string[];
  note?: string;
  /**
   * Requirements this passing case gave no evidence for, each with the reason: under each of them
   * it shows `untested`, never `pass` (its own status and other requirements unchanged).
   */
  untestedRequirements?: Record<string, string>;
  errors?: string[];
  evidence?: JsonValue;
  /** Set when the case ran several times (`--repeat`). */
  repeat?: RepeatSummary;
  /** The last lines the target wrote on stderr during the failing case (bounded). */
  stderrTail?: string[];
  /** What a failing case found, most fundamental first: `merge` regroups problems from them. */
  findings?: Finding[];
  /** The problem (its id in `problems`) that explains a failing or known-failure case. */
  problem?: string;
  /** The problem (its id in `problems`) that keeps a blocked case from being judged. */
  blockedBy?: string;
}

export interface ReportRequirement {
  id: string;
  level: RequirementLevel;
  summary: string;
  /**
   * Follows the failing cases: `fail` when a MUST case failed, `warn` when only SHOULD ones did; a
   * passing case that gave no evidence for this requirement counts as untested here.
   */
  status: ReportedStatus;
  cases: ReportCase[];
}

/** The JSON report (`report.json`; its schema is `cli/report/report.schema.json`). */
export interface Report {
  tool: { name: 'ahp-conformance'; version: string };
  protocolVersion: 'draft';
  role: 'harness' | 'backend';
  target: JsonValue;
  claim: Claim;
  seed: number;
  startedAt: string;
  durationMs: number;
  /** The distinct problems of the run, most fundamental first: one defect is one problem. */
  problems: ReportProblem[];
  requirements: ReportRequirement[];
  summary: {
    passed: number;
    failed: number;
    skipped: number;
    untested: number;
    /** Cases an earlier problem kept from being judged: never passed, never failed on their own. */
    blocked: number;
    knownFailures: number;
    warnings: number;
  };
  /** Errors outside any case; any of them fails the run. */
  runErrors: string[];
  /** The options of the run (selection, seed, runs, scale, repeat, strict, reporters). */
  options?: JsonValue;
  /** What `--known-failures` did: stale entries and patterns that match nothing fail the run. */
  baseline?: BaselineSummary;
  /** Set in the partial report of a `--shard` run: `merge` joins the shards' reports. */
  shard?: ShardRecord;
  /** Set when the target stopped being usable and the run stopped there (exit code 3). */
  stopped?: TargetStopped;
  /** True in the partial report of a run stopped by SIGINT/SIGTERM: it holds what ran before. */
  interrupted?: boolean;
}

export interface ReportInput {
  version: string;
  role: 'harness' | 'backend';
  target: JsonValue;
  claim: Claim;
  seed: number;
  startedAt: string;
  durationMs: number;
  cases: CaseResult[];
  runErrors: string[];
  options?: JsonValue;
  baseline?: BaselineSummary;
  shard?: ShardRecord;
  stopped?: TargetStopped;
}

/** Groups cases by requirement (a case asserting several requirements appears under each). */
export function buildReport(input: ReportInput): Report {
  const problems = reportProblems(input.cases, input.baseline);
  const problemOf = new Map<string, string>();
  for (const p of problems) for (const name of p.cases) if (!problemOf.has(name)) problemOf.set(name, p.id);
  const byId = new Map<string, ReportCase[]>();
  for (const c of input.cases) {
    const problem = problemOf.get(c.name);
    const entry: ReportCase = {
      name: c.name,
      requirements: c.requirements,
      level: c.level,
      status: c.status,
      durationMs: c.durationMs,
      transports: c.transports,
      ...(c.note !== undefined ? { note: c.note } : {}),
      ...(c.status === 'pass' && c.untestedRequirements !== undefined
        ? { untestedRequirements: c.untestedRequirements }
        : {}),
      ...(c.errors.length > 0 ? { errors: c.errors } : {}),
      ...(c.evidence !== undefined ? { evidence: c.evidence } : {}),
      ...(c.repeat !== undefined ? { repeat: c.repeat } : {}),
      ...(c.stderrTail !== undefined ? { stderrTail: c.stderrTail } : {}),
      ...(c.findings !== undefined && c.findings.length > 0 ? { findings: c.findings } : {}),
      ...(problem !== undefined && c.status === 'blocked' ? { blockedBy: problem } : {}),
      ...(problem !== undefined && c.status !== 'blocked' ? { problem } : {}),
    };
    for (const id of c.requirements) byId.set(id, [...(byId.get(id) ?? []), entry]);
  }
  const requirements = [...byId.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, cases]) => {
      const known = requirementById(id);
      return {
        id,
        level: known?.level ?? 'MUST',
        summary: known?.summary ?? '',
        status: requirementStatus(cases, id),
        cases,
      };
    });
  const count = (s: CaseStatus) => input.cases.filter((c) => c.status === s).length;
  return {
    tool: { name: 'ahp-conformance', version: input.version },
    protocolVersion: 'draft',
    role: input.role,
    target: input.target,
    claim: {
      ...input.claim,
      coverage: claimCoverage(input.claim.role, input.claim.profiles, input.cases),
    },
    seed: input.seed,
    startedAt: input.startedAt,
    durationMs: input.durationMs,
    problems,
    requirements,
    summary: {
      passed: count('pass'),
      failed: input.cases.filter((c) => c.status === 'fail' && isMandatory(c.level)).length,
      skipped: count('skipped'),
      untested: count('untested'),
      blocked: count('blocked'),
      knownFailures: count('known-failure'),
      warnings: input.cases.filter((c) => c.status === 'fail' && !isMandatory(c.level)).length,
    },
    runErrors: input.runErrors,
    ...(input.options !== undefined ? { options: input.options } : {}),
    ...(input.baseline !== undefined ? { baseline: input.baseline } : {}),
    ...(input.shard !== undefined ? { shard: input.shard } : {}),
    ...(input.stopped !== undefined ? { stopped: input.stopped } : {}),
  };
}

/**
 * Exit code 0 or 1 from a report: MUST failures (and SHOULD failures under `--strict`), a MUST
 * problem no known-failures line covers (so blocked cases alone still fail the run), run errors
 * and a stale known-failures line fail it.
 */
export function conformanceExitCode(report: Report, strict: boolean): 0 | 1 {
  if (report.runErrors.length > 0) return 1;
  if (baselineFails(report.baseline)) return 1;
  if (report.summary.failed > 0) return 1;
  if (strict && report.summary.warnings > 0) return 1;
  if (failingProblems(report.problems, strict).length > 0) return 1;
  return 0;
}
