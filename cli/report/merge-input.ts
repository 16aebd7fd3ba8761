/**
 * Reading JSON reports: the partial reports `merge` joins (each the report of a `--shard` run) and
 * the two runs `diff` compares. Only what those commands rely on is checked; fields they do not
 * read pass through unchanged.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { z } from 'zod';
import { bounded } from '../file-system-bound.js';
import { UsageError } from '../io.js';
import type { Report } from './report.js';

const status = z.enum(['pass', 'fail', 'untested', 'blocked', 'skipped', 'known-failure']);
/** A requirement's status adds `warn` (only SHOULD cases failed); merge recomputes it anyway. */
const requirementStatus = z.enum(['pass', 'fail', 'warn', 'untested', 'blocked', 'skipped', 'known-failure']);
const level = z.enum(['MUST', 'MUST NOT', 'SHOULD', 'SHOULD NOT', 'MAY']);

const reportCase = z.looseObject({
  name: z.string().min(1),
  requirements: z.array(z.string()),
  level,
  status,
  durationMs: z.number().min(0),
  transports: z.array(z.string()),
  note: z.string().optional(),
  untestedRequirements: z.record(z.string(), z.string()).optional(),
  errors: z.array(z.string()).optional(),
  findings: z.array(z.looseObject({ rule: z.string().min(1), requirement: z.string() })).optional(),
  blockedBy: z.string().optional(),
});

/** A problem of a shard: merge regroups, and reads a problem only to restore a blocked case's cause. */
const problem = z.looseObject({
  id: z.string().min(1),
  key: z.string().min(1),
  requirement: z.string(),
  level,
  sentence: z.looseObject({ document: z.string(), anchor: z.string(), text: z.string() }),
  rank: z.int().min(0),
  summary: z.string(),
  evidence: z.looseObject({ case: z.string(), message: z.string() }),
  cases: z.array(z.string()),
});

const shard = z.looseObject({
  index: z.int().min(1),
  count: z.int().min(1),
  cases: z.array(z.string().min(1)),
  selected: z.int().min(0),
  selection: z.string(),
  balancedBy: z.string(),
});

const baseline = z.looseObject({
  file: z.string(),
  tolerated: z.int().min(0),
  entries: z.array(
    z.looseObject({
      pattern: z.string(),
      line: z.int(),
      reason: z.string(),
      failing: z.int().min(0),
      passing: z.array(z.string()),
      problems: z.array(z.string()),
    }),
  ),
});

const partialReport = z.looseObject({
  tool: z.looseObject({ name: z.literal('ahp-conformance'), version: z.string() }),
  protocolVersion: z.string(),
  role: z.enum(['harness', 'backend']),
  target: z.unknown(),
  claim: z.looseObject({ role: z.string(), bindings: z.array(z.string()), profiles: z.array(z.string()) }),
  seed: z.int().min(0),
  startedAt: z.iso.datetime(),
  durationMs: z.number().min(0),
  problems: z.array(problem),
  requirements: z.array(
    z.looseObject({
      id: z.string(),
      level,
      summary: z.string(),
      status: requirementStatus,
      cases: z.array(reportCase),
    }),
  ),
  summary: z.looseObject({}),
  runErrors: z.array(z.string()),
  options: z.record(z.string(), z.unknown()).optional(),
  baseline: baseline.optional(),
  shard: shard.optional(),
});

/** A partial report as `merge` read it, with the path it came from (as the user gave it). */
export interface PartialReport {
  shown: string;
  report: Report & { shard: NonNullable<Report['shard']> };
}

const FIX = 'give the report.json that each `--shard <i>/<n>` run wrote';

/** The first line of a run error, bounded: a collection error may carry a whole stack. */
function firstLine(error: string): string {
  const line = error.split('\n', 1)[0]?.trim() ?? '';
  const text = line.length > 200 ? `${line.slice(0, 199)}…` : line;
  return text.replace(/\.$/, '');
}

/**
 * Reads and checks one JSON report (`--reporter json`) of a harness or backend run; every problem
 * is one sentence naming the file and ending with `fix` (what the command needs instead).
 */
export async function readReportFile(path: string, cwd: string, fix: string): Promise<Report> {
  let text: string;
  try {
    text = await bounded(readFile(resolve(cwd, path), 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`cannot read the report "${path}" (${code}); ${fix}.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw new UsageError(`"${path}" is not JSON; ${fix}.`);
  }
  const parsed = partialReport.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` (${issue.path.join('.')}: ${issue.message})` : '';
    throw new UsageError(`"${path}" is not an ahp-conformance report${where}; ${fix}.`);
  }
  return parsed.data as unknown as Report;
}

/** Reads and checks one partial report; every problem is one sentence naming the file. */
export async function readPartialReport(path: string, cwd: string): Promise<PartialReport> {
  const report = await readReportFile(path, cwd, FIX);
  const [runError] = report.runErrors;
  if (report.shard === undefined && runError !== undefined) {
    // A shard whose cases could not even be collected never learns its share, so writes no shard.
    throw new UsageError(
      `"${path}" records no shard because the run that wrote it failed (${firstLine(runError)}); fix that and rerun the shard.`,
    );
  }
  if (report.shard === undefined) {
    throw new UsageError(
      `"${path}" is the report of a run without --shard, which is whole already; merge only the reports of --shard <i>/<n> runs.`,
    );
  }
  if (report.shard.index > report.shard.count) {
    throw new UsageError(
      `"${path}" says it is shard ${report.shard.index} of ${report.shard.count}; ${FIX}.`,
    );
  }
  return { shown: path, report: report as PartialReport['report'] };
}
