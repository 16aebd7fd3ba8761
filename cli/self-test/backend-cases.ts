/**
 * Runs the self-certification self-test (its data: suites/backend/self-test-runs.ts): the CLI on
 * each example backend, checked against exactly the requirements it must fail or warn on.
 */
import { expect } from 'vitest';
import {
  SELF_TEST_DENY_INPUT,
  SELF_TEST_MODIFY_INPUT,
  SELF_TEST_TOKEN,
  type SelfTestCase,
} from '../../suites/backend/index.js';
import { exampleBackend, startHttpExample } from '../../suites/backend/test-support.js';
import { problemOfCase } from '../../suites/common/index.js';
import type { Report } from '../report/report.js';
import { failedRequirements, problemCases, problemsOf, runCli } from './backend-run.js';
import { counted } from '../report/count.js';

export {
  BROKEN_HTTP_RUNS,
  BROKEN_STDIO_RUNS,
  CORRECT_RUNS,
  SELF_TEST_DENY_INPUT,
  SELF_TEST_MODIFY_INPUT,
  SELF_TEST_TOKEN,
  type SelfTestCase,
} from '../../suites/backend/index.js';

/** The CLI arguments that self-certify `c` (HTTP: at `url`). */
export function selfTestArgv(c: SelfTestCase, backendPath: string, url?: string): string[] {
  const common = [
    '--deny-input',
    SELF_TEST_DENY_INPUT,
    '--modify-input',
    SELF_TEST_MODIFY_INPUT,
    ...(c.allowInput ? ['--allow-input', c.allowInput] : []),
    ...(c.deadlineMs ? ['--deadline-ms', String(c.deadlineMs)] : []),
  ];
  const auth = c.token ? ['--bearer-token-env', SELF_TEST_TOKEN.env] : [];
  if (c.binding === 'http') return ['backend', '--url', url as string, ...auth, ...common];
  const lifecycle = c.binding === 'stdio-per_event' ? 'per_event' : 'persistent';
  return ['backend', '--stdio', '--lifecycle', lifecycle, ...common, '--', process.execPath, backendPath];
}

/** One CLI run takes a vitest start plus its cases; generous for a loaded 2-core machine. */
export const SELF_TEST_RUN_TIMEOUT_MS = 300_000;

/**
 * Runs at once per self-test file. Runs are independent (each its own vitest instance, backend
 * processes and temporary report directory); two share the 2 cores without starving a backend
 * past its deadline.
 */
export const SELF_TEST_PARALLEL_RUNS = 2;

/** Runs one self-test case and checks its exit code, its failed requirements and its evidence. */
export async function checkSelfTest(c: SelfTestCase): Promise<void> {
  const env = c.token ? { [SELF_TEST_TOKEN.env]: SELF_TEST_TOKEN.value } : {};
  const tokenArgs = c.token ? ['--token-env', SELF_TEST_TOKEN.env] : [];
  const http = c.binding === 'http' ? await startHttpExample(c.example, tokenArgs, env) : undefined;
  try {
    const outcome = await runCli(selfTestArgv(c, exampleBackend(c.example), http?.url), env);
    expect(outcome.err).toBe('');
    const report = outcome.report;
    if (!report) throw new Error(`no report.json; stdout: ${outcome.out}`);
    expect(report.claim.bindings).toEqual([c.binding === 'http' ? 'http' : 'stdio']);
    expect(failedRequirements(report)).toEqual({ failed: c.breaks, warnings: c.warnings ?? [] });
    expect(outcome.code).toBe(c.breaks.length > 0 ? 1 : 0);
    const cases = report.requirements.flatMap((r) => r.cases);
    const untested = cases.filter((x) => x.status === 'untested');
    if (c.untested) {
      expect([...new Set(untested.flatMap((x) => x.requirements))].sort()).toEqual(c.untested.requirements);
      for (const x of untested) expect(x.note, x.name).toMatch(c.untested.reason);
    } else if (c.breaks.length === 0 && !c.warnings) {
      // With a deny input every check applies: nothing may be left untested by a correct backend.
      expect(cases.filter((x) => x.status !== 'pass').map((x) => `${x.name}: ${x.note ?? ''}`)).toEqual([]);
    }
    if (c.token) {
      // The token reached the backend (it answers nothing without it) and no report shows it.
      expect(JSON.stringify(report)).not.toContain(SELF_TEST_TOKEN.value);
      if (c.breaks.length > 0) expect(JSON.stringify(report)).toContain('[redacted]');
    }
    for (const failing of cases.filter((x) => x.status === 'fail')) {
      const evidence = failing.evidence as { findings?: string[]; transcript?: unknown[] } | undefined;
      expect(evidence?.findings?.length, failing.name).toBeGreaterThan(0);
      expect(evidence?.transcript?.length, failing.name).toBeGreaterThan(0);
    }
    checkProblems(c, report);
  } finally {
    await http?.stop();
  }
}

/** Most distinct problems a twin with one defect may report. */
const MAX_TWIN_PROBLEMS = 2;

/**
 * One defect is one problem: a broken twin's run groups into at most two problems, each of a
 * requirement it breaks (or warns on), and every failing and blocked case is explained by one of
 * them through findings the suite gave it (none grouped as unclassified). A run that breaks
 * nothing blocks nothing: `untested` stays for what the vendor did not give.
 */
function checkProblems(c: SelfTestCase, report: Report): void {
  const problems = problemsOf(report);
  const expected = [...c.breaks, ...(c.warnings ?? [])];
  const described = problems.map((p) => `${p.requirement} ${p.key}: ${counted(p.cases.length, 'case')}`);
  if (c.problems !== undefined) expect(described).toHaveLength(c.problems);
  expect(problems.length, described.join('; ')).toBeLessThanOrEqual(MAX_TWIN_PROBLEMS);
  for (const p of problems) expect(expected, described.join('; ')).toContain(p.requirement);
  const of = problemOfCase(problems);
  for (const x of problemCases(report).filter((x) => x.status === 'fail' || x.status === 'blocked')) {
    if (x.status === 'fail') expect(x.findings?.length, x.name).toBeGreaterThan(0);
    else expect(x.blockedBy?.requirement, x.name).toBeDefined();
    expect(of.get(x.name)?.requirement, x.name).toBeDefined();
  }
  if (expected.length === 0) expect(problems).toEqual([]);
}
