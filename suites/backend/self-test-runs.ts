/**
 * The self-certification self-test as data: each example backend (a "twin": a correct one, or one
 * with a deliberate defect), the binding it is run over, and exactly the requirements it must
 * fail (`breaks`, MUST) or warn on (`warnings`, SHOULD). The same vocabulary as the harness twins'
 * declarations (fixtures/broken/lib/judged-by.ts). Binding-agnostic defects run over HTTP, where a case
 * costs no process start; stdio-only defects over stdio. Pure data: the coverage registry reads it.
 */
import type { BackendBinding } from './target.js';

/** One self-test run: a twin (an example backend), its binding, and what it must fail or warn on. */
export interface SelfTestCase {
  /** The example backend under `fixtures/backends/` (`correct-backend`, `broken/<name>`). */
  twin: string;
  binding: BackendBinding;
  /** The requirement IDs its run must fail (MUST), no more, no fewer. */
  breaks: string[];
  /** The requirement IDs its run must warn on (SHOULD), no more, no fewer. */
  warnings?: string[];
  /** Requirements whose cases the example leaves untested, each with its reason (matched). */
  untested?: { requirements: string[]; reason: RegExp };
  /** `--allow-input` for the run (the default allow input otherwise). */
  allowInput?: string;
  /** A shorter liveness deadline, for the example that stops answering. */
  deadlineMs?: number;
  /** HTTP only: the example requires a bearer token, and the CLI sends it (`--bearer-token-env`). */
  token?: true;
  /** How many distinct problems its run reports, when the twin pins it (every broken twin: at most 2). */
  problems?: number;
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
  { twin: 'correct-backend', binding: 'stdio-persistent', breaks: [] },
  { twin: 'correct-backend', binding: 'stdio-per_event', breaks: [] },
  { twin: 'correct-backend', binding: 'http', breaks: [], token: true },
  { twin: 'strict-backend', binding: 'stdio-persistent', breaks: [] },
  { twin: 'strict-backend', binding: 'stdio-per_event', breaks: [] },
  { twin: 'strict-backend', binding: 'http', breaks: [], token: true },
  { twin: '../../docs/examples/deny-rm-backend', binding: 'stdio-persistent', breaks: [] },
];

/** The twins whose defect only stdio can show. */
export const BROKEN_STDIO_RUNS: readonly SelfTestCase[] = [
  { twin: 'broken/banner', binding: 'stdio-persistent', breaks: ['AHP-STDIO-001'] },
  { twin: 'broken/multi-line', binding: 'stdio-persistent', breaks: ['AHP-STDIO-001'] },
  // One log line after each reply: one problem, and every other check still judged (and passed).
  {
    twin: 'broken/log-after-reply',
    binding: 'stdio-persistent',
    breaks: ['AHP-STDIO-001'],
    problems: 1,
  },
  { twin: 'broken/answers-notifications', binding: 'stdio-persistent', breaks: ['AHP-RPC-002'] },
  { twin: 'broken/crash-on-unknown-fields', binding: 'stdio-persistent', breaks: ['AHP-CORE-003'] },
  // The seventh request of the liveness run is never answered: one deadline is waited out.
  {
    twin: 'broken/stall-after-six',
    binding: 'stdio-persistent',
    breaks: ['AHP-RPC-002'],
    deadlineMs: 4_000,
  },
  { twin: 'broken/exit-nonzero', binding: 'stdio-per_event', breaks: ['AHP-STDIO-001'] },
  // It starts and waits, so it can be exercised: judged (exit 1), not refused (exit 3).
  { twin: 'broken/crash-on-request', binding: 'stdio-persistent', breaks: ['AHP-STDIO-001'] },
];

/** The twins whose defect any binding shows, run over HTTP, plus the HTTP-only ones. */
export const BROKEN_HTTP_RUNS: readonly SelfTestCase[] = [
  { twin: 'broken/wrong-id', binding: 'http', breaks: ['AHP-RPC-001'] },
  { twin: 'broken/wrong-version', binding: 'http', breaks: ['AHP-VER-001'] },
  { twin: 'broken/no-version-error', binding: 'http', breaks: ['AHP-VER-001'] },
  { twin: 'broken/version-invalid-params', binding: 'http', breaks: ['AHP-VER-001'] },
  // Its very first reply is a JSON-RPC error to a valid request: judged, with a full report.
  { twin: 'broken/demands-tool-call-id', binding: 'http', breaks: ['AHP-DEC-001'] },
  {
    twin: 'broken/allow-when-permitted',
    binding: 'http',
    breaks: ['AHP-CAP-001'],
    allowInput: '{"command":"git status"}',
  },
  {
    twin: 'broken/deny-everything',
    binding: 'http',
    breaks: [],
    token: true,
    untested: {
      requirements: ['AHP-CAP-001', 'AHP-CORE-003', 'AHP-CORE-004', 'AHP-DEC-001'],
      reason: /never answered the allow input with no effects .*--allow-input/,
    },
  },
  { twin: 'broken/unadvertised-effect', binding: 'http', breaks: ['AHP-CAP-001'] },
  { twin: 'broken/empty-deny-reason', binding: 'http', breaks: ['AHP-DEC-001'] },
  { twin: 'broken/inconsistent-duplicate', binding: 'http', breaks: ['AHP-CORE-004'] },
  { twin: 'broken/unknown-event-accepted', binding: 'http', breaks: ['AHP-CORE-003'] },
  { twin: 'broken/unknown-method-accepted', binding: 'http', breaks: ['AHP-RPC-002'] },
  // The draft's Base Protocol profile makes each defined code a MUST: -32001 (version), -32002
  // (event) and JSON-RPC 2.0's -32601 (method).
  {
    twin: 'broken/generic-error-codes',
    binding: 'http',
    breaks: ['AHP-CORE-003', 'AHP-RPC-002', 'AHP-VER-001'],
  },
  { twin: 'broken/http-wrong-content-type', binding: 'http', breaks: ['AHP-HTTP-001'] },
  { twin: 'broken/http-notification-body', binding: 'http', breaks: ['AHP-HTTP-001'] },
  { twin: 'broken/http-echoes-token', binding: 'http', breaks: ['AHP-HTTP-001'], token: true },
];
