// The CLI run in-process on a backend, with its report read back and read as the self-tests
// need it: the failed and warned requirements, and the problems of its cases.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { groupProblems, type Finding, type Problem, type ProblemCase } from '../../suites/common/index.js';
import type { Report } from '../report/report.js';
import { run } from '../run.js';
import { fakeIo } from '../test-support/fake-io.js';

/** What one in-process CLI run gave: its exit code, its output and the report it wrote. */
export interface CliOutcome {
  code: number;
  out: string;
  err: string;
  report: Report | undefined;
}

/** Runs `ahp-conformance <argv...> --reporter json --output-dir <tmp>` in-process and reads report.json back. */
export async function runCli(
  argv: string[],
  env: Record<string, string | undefined> = {},
): Promise<CliOutcome> {
  const dir = await mkdtemp(join(tmpdir(), 'ahp-backend-'));
  try {
    const dashes = argv.indexOf('--');
    const head = dashes === -1 ? argv : argv.slice(0, dashes);
    const tail = dashes === -1 ? [] : argv.slice(dashes);
    const io = fakeIo([...head, '--reporter', 'json', '--output-dir', dir, ...tail], {
      env: { PATH: process.env.PATH, ...env },
    });
    const code = await run(io.io);
    let report: Report | undefined;
    try {
      report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as Report;
    } catch {
      report = undefined;
    }
    return { code, out: io.out(), err: io.err(), report };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Requirements with a failing case at MUST level (what fails a run) and at SHOULD level (warnings). */
export function failedRequirements(report: Report): { failed: string[]; warnings: string[] } {
  const cases = report.requirements.flatMap((r) => r.cases);
  const ids = (must: boolean) =>
    [
      ...new Set(
        cases
          .filter((c) => c.status === 'fail' && (c.level === 'MUST' || c.level === 'MUST NOT') === must)
          .flatMap((c) => c.requirements),
      ),
    ].sort();
  return { failed: ids(true), warnings: ids(false) };
}

/**
 * The cases of a backend report as grouping needs them: a failing case's findings, and the
 * finding a blocked case's evidence names as its blocker (one entry per case).
 */
export function problemCases(report: Report): ProblemCase[] {
  const byName = new Map<string, ProblemCase>();
  for (const c of report.requirements.flatMap((r) => r.cases)) {
    const blockedBy = (c.evidence as { blockedBy?: Finding } | undefined)?.blockedBy;
    byName.set(c.name, {
      name: c.name,
      status: c.status,
      requirements: c.requirements,
      level: c.level,
      ...(c.errors ? { errors: c.errors } : {}),
      ...(c.findings ? { findings: c.findings } : {}),
      ...(blockedBy ? { blockedBy } : {}),
    });
  }
  return [...byName.values()];
}

/** The distinct problems of a backend report's cases (`groupProblems`). */
export function problemsOf(report: Report): Problem[] {
  return groupProblems(problemCases(report));
}
