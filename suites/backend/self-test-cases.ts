/**
 * The self-certification self-test as data: each example backend, the binding it is run over,
 * and exactly the requirements it must fail (MUST) or warn on (SHOULD). Binding-agnostic
 * defects run over HTTP, where a case costs no process start; stdio-only defects over stdio.
 */
import { expect } from 'vitest';
import type { BackendBinding } from './target.js';
import { exampleBackend, failedRequirements, runCli, startHttpExample } from './test-support.js';

/** One self-test run: an example, its binding, and what it must fail or warn on. */
export interface SelfTestCase {
  example: string;
  binding: BackendBinding;
  failed: string[];
  warnings?: string[];
  /** Requirements whose cases the example leaves untested, each with its reason (matched). */
  untested?: { requirements: string[]; reason: RegExp };
  /** `--allow-input` for the run (the default allow input otherwise). */
  allowInput?: string;
  /** A shorter liveness deadline, for the example that stops answering. */
  deadlineMs?: number;
  /** HTTP only: the example requires a bearer token, and the CLI sends it (`--bearer-token-env`). */
  token?: true;
}

/** The bearer token of the self-test runs that use one, and the variable it travels in. */
export const SELF_TEST_TOKEN = { env: 'AHP_SELF_TEST_TOKEN', value: 'self-test-token-7c1e9b' } as const;

/** The deny input of every self-test run: the example policy denies recursive forced deletion. */
export const SELF_TEST_DENY_INPUT = '{"command":"rm -rf /tmp/build"}';

/**
 * The correct examples, over every binding: they pass everything. The strict one refuses unknown
 * keys in the closed `tool` and `call` objects with -32602; the docs' example is the one vendors
 * start from.
 */
export const CORRECT_RUNS: readonly SelfTestCase[] = [
  { example: 'correct-backend', binding: 'stdio-persistent', failed: [] },
  { example: 'correct-backend', binding: 'stdio-per_event', failed: [] },
  { example: 'correct-backend', binding: 'http', failed: [], token: true },
  { example: 'strict-backend', binding: 'stdio-persistent', failed: [] },
  { example: 'strict-backend', binding: 'stdio-per_event', failed: [] },
  { example: 'strict-backend', binding: 'http', failed: [], token: true },
  { example: '../../docs/examples/deny-rm-backend', binding: 'stdio-persistent', failed: [] },
];

/** The twins whose defect only stdio can show. */
export const BROKEN_STDIO_RUNS: readonly SelfTestCase[] = [
  { example: 'broken/banner', binding: 'stdio-persistent', failed: ['AHP-STDIO-001'] },
  { example: 'broken/multi-line', binding: 'stdio-persistent', failed: ['AHP-STDIO-001'] },
  { example: 'broken/log-after-reply', binding: 'stdio-persistent', failed: ['AHP-STDIO-001'] },
  { example: 'broken/answers-notifications', binding: 'stdio-persistent', failed: ['AHP-RPC-002'] },
  { example: 'broken/crash-on-unknown-fields', binding: 'stdio-persistent', failed: ['AHP-CORE-003'] },
  // The seventh request of the liveness run is never answered: one deadline is waited out.
  {
    example: 'broken/stall-after-six',
    binding: 'stdio-persistent',
    failed: ['AHP-RPC-002'],
    deadlineMs: 4_000,
  },
  { example: 'broken/exit-nonzero', binding: 'stdio-per_event', failed: ['AHP-STDIO-001'] },
  // It starts and waits, so it can be exercised: judged (exit 1), not refused (exit 3).
  { example: 'broken/crash-on-request', binding: 'stdio-persistent', failed: ['AHP-STDIO-001'] },
];

/** The twins whose defect any binding shows, run over HTTP, plus the HTTP-only ones. */
export const BROKEN_HTTP_RUNS: readonly SelfTestCase[] = [
  { example: 'broken/wrong-id', binding: 'http', failed: ['AHP-RPC-001'] },
  { example: 'broken/wrong-version', binding: 'http', failed: ['AHP-VER-001'] },
  { example: 'broken/no-version-error', binding: 'http', failed: ['AHP-VER-001'] },
  { example: 'broken/version-invalid-params', binding: 'http', failed: ['AHP-VER-001'] },
  // Its very first reply is a JSON-RPC error to a valid request: judged, with a full report.
  { example: 'broken/demands-tool-call-id', binding: 'http', failed: ['AHP-DEC-001'] },
  {
    example: 'broken/allow-when-permitted',
    binding: 'http',
    failed: ['AHP-CAP-001'],
    allowInput: '{"command":"git status"}',
  },
  {
    example: 'broken/deny-everything',
    binding: 'http',
    failed: [],
    token: true,
    untested: {
      requirements: ['AHP-CAP-001', 'AHP-CORE-003', 'AHP-CORE-004', 'AHP-DEC-001'],
      reason: /never let the allow input through .*--allow-input/,
    },
  },
  { example: 'broken/unadvertised-effect', binding: 'http', failed: ['AHP-CAP-001'] },
  { example: 'broken/empty-deny-reason', binding: 'http', failed: ['AHP-DEC-001'] },
  { example: 'broken/inconsistent-duplicate', binding: 'http', failed: ['AHP-CORE-004'] },
  { example: 'broken/unknown-event-accepted', binding: 'http', failed: ['AHP-CORE-003'] },
  { example: 'broken/unknown-method-accepted', binding: 'http', failed: ['AHP-RPC-002'] },
  // The draft's Base Protocol profile makes each defined code a MUST: -32001 (version), -32002
  // (event) and JSON-RPC 2.0's -32601 (method).
  {
    example: 'broken/generic-error-codes',
    binding: 'http',
    failed: ['AHP-CORE-003', 'AHP-RPC-002', 'AHP-VER-001'],
  },
  { example: 'broken/http-wrong-content-type', binding: 'http', failed: ['AHP-HTTP-001'] },
  { example: 'broken/http-notification-body', binding: 'http', failed: ['AHP-HTTP-001'] },
  { example: 'broken/http-echoes-token', binding: 'http', failed: ['AHP-HTTP-001'], token: true },
];

/** The CLI arguments that self-certify `c` (HTTP: at `url`). */
export function selfTestArgv(c: SelfTestCase, backendPath: string, url?: string): string[] {
  const common = [
    '--deny-input',
    SELF_TEST_DENY_INPUT,
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

/** A small semaphore: at most `slots` self-test runs at a time within one test file. */
export function limiter(slots: number): <T>(work: () => Promise<T>) => Promise<T> {
  let free = slots;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (free === 0) await new Promise<void>((resolve) => waiting.push(resolve));
    else free -= 1;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    }
  };
}

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
    expect(failedRequirements(report)).toEqual({ failed: c.failed, warnings: c.warnings ?? [] });
    expect(outcome.code).toBe(c.failed.length > 0 ? 1 : 0);
    const cases = report.requirements.flatMap((r) => r.cases);
    const untested = cases.filter((x) => x.status === 'untested');
    if (c.untested) {
      expect([...new Set(untested.flatMap((x) => x.requirements))].sort()).toEqual(c.untested.requirements);
      for (const x of untested) expect(x.note, x.name).toMatch(c.untested.reason);
    } else if (c.failed.length === 0 && !c.warnings) {
      // With a deny input every check applies: nothing may be left untested by a correct backend.
      expect(cases.filter((x) => x.status !== 'pass').map((x) => `${x.name}: ${x.note ?? ''}`)).toEqual([]);
    }
    if (c.token) {
      // The token reached the backend (it answers nothing without it) and no report shows it.
      expect(JSON.stringify(report)).not.toContain(SELF_TEST_TOKEN.value);
      if (c.failed.length > 0) expect(JSON.stringify(report)).toContain('[redacted]');
    }
    for (const failing of cases.filter((x) => x.status === 'fail')) {
      const evidence = failing.evidence as { findings?: string[]; transcript?: unknown[] } | undefined;
      expect(evidence?.findings?.length, failing.name).toBeGreaterThan(0);
      expect(evidence?.transcript?.length, failing.name).toBeGreaterThan(0);
    }
  } finally {
    await http?.stop();
  }
}
