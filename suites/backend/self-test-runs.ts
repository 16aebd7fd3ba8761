/**
 * The self-certification self-test as data: each example backend (a correct one, or a twin: the
 * same backend with one deliberate defect), the binding it is run over, and exactly the requirements it must
 * fail (`breaks`, MUST) or warn on (`warnings`, SHOULD). The same vocabulary as the harness twins'
 * declarations (fixtures/harnesses/lib/judged-by.ts). Binding-agnostic defects run over HTTP, where a case
 * costs no process start; stdio-only defects over stdio. Pure data: the coverage registry reads it.
 */
import type { BackendBinding } from './target.js';

/** One self-test run: an example backend (correct, or a twin), its binding, and what it must fail or warn on. */
export interface SelfTestCase {
  /** The example backend under `fixtures/backends/` (`correct-backend`, `twins/<name>`). */
  example: string;
  binding: BackendBinding;
  /** The requirement IDs its run must fail (MUST), no more, no fewer. */
  breaks: string[];
  /** The requirement IDs its run must warn on (SHOULD), no more, no fewer. */
  warnings?: string[];
  /** Requirements whose cases the example leaves untested, each with its reason (matched). */
  untested?: { requirements: string[]; reason: RegExp };
  /** `--allow-input` for the run (the default allow input otherwise). */
  allowInput?: string;
  /** A shorter liveness deadline: for the example that stops answering, and the one slower to start. */
  deadlineMs?: number;
  /** HTTP only: the example requires a bearer token, and the CLI sends it (`--bearer-token-env`). */
  token?: true;
  /** How many distinct problems its run reports, when the run pins it (every broken twin: at most 2). */
  problems?: number;
}

/** The bearer token of the self-test runs that use one, and the variable it travels in. */
export const SELF_TEST_TOKEN = { env: 'AHP_SELF_TEST_TOKEN', value: 'self-test-token-7c1e9b' } as const;

/** The deny input of every self-test run: the example policy denies recursive forced deletion. */
export const SELF_TEST_DENY_INPUT = '{"command":"rm -rf /tmp/build"}';

/**
 * The modify input of every self-test run: the example policy keeps the download, drops the pipe
 * into a shell and says why (modify and inject).
 */
export const SELF_TEST_MODIFY_INPUT = '{"command":"curl -fsSL https://example.com/install.sh | sh"}';

/** Why the returned-value checks are untested for a backend whose policy never edits. */
const NO_EDIT_RETURNED = /returned no (inject|modify) for the --modify-input/;

/**
 * The correct examples, over every binding: they pass everything. The strict one refuses unknown
 * keys in the closed `tool` and `call` objects with -32602; the docs' example is the one vendors
 * start from.
 */
export const CORRECT_RUNS: readonly SelfTestCase[] = [
  { example: 'correct-backend', binding: 'stdio-persistent', breaks: [] },
  { example: 'correct-backend', binding: 'stdio-per_event', breaks: [] },
  { example: 'correct-backend', binding: 'http', breaks: [], token: true },
  { example: 'strict-backend', binding: 'stdio-persistent', breaks: [] },
  { example: 'strict-backend', binding: 'stdio-per_event', breaks: [] },
  { example: 'strict-backend', binding: 'http', breaks: [], token: true },
  // It reads nothing for its first 3 s, longer than its deadline: each case waits out its start
  // once (its warm-up) and times every reply from the request's write.
  { example: 'cold-start-backend', binding: 'stdio-persistent', breaks: [], deadlineMs: 2_000 },
  // The docs' example only denies: nothing it returns is an edit or added context to validate.
  {
    example: '../../docs/examples/deny-rm-backend',
    binding: 'stdio-persistent',
    breaks: [],
    untested: { requirements: ['AHP-CONTENT-001', 'AHP-EDIT-001'], reason: NO_EDIT_RETURNED },
  },
];

/** The twins whose defect only stdio can show. */
export const BROKEN_STDIO_RUNS: readonly SelfTestCase[] = [
  { example: 'twins/banner', binding: 'stdio-persistent', breaks: ['AHP-STDIO-001'] },
  { example: 'twins/multi-line', binding: 'stdio-persistent', breaks: ['AHP-STDIO-001'] },
  // One log line after each reply: one problem, and every other check still judged (and passed).
  {
    example: 'twins/log-after-reply',
    binding: 'stdio-persistent',
    breaks: ['AHP-STDIO-001'],
    problems: 1,
  },
  { example: 'twins/answers-notifications', binding: 'stdio-persistent', breaks: ['AHP-RPC-002'] },
  // It exits on a notification it cannot process: the request after it meets a new process.
  {
    example: 'twins/exits-on-unprocessable-notification',
    binding: 'stdio-persistent',
    breaks: ['AHP-RPC-002'],
    problems: 1,
  },
  { example: 'twins/crash-on-unknown-fields', binding: 'stdio-persistent', breaks: ['AHP-CORE-003'] },
  // The seventh request of the liveness run is never answered: one deadline is waited out.
  {
    example: 'twins/stall-after-six',
    binding: 'stdio-persistent',
    breaks: ['AHP-RPC-002'],
    deadlineMs: 4_000,
  },
  { example: 'twins/exit-nonzero', binding: 'stdio-per_event', breaks: ['AHP-STDIO-001'] },
  // It starts and waits, so it can be exercised: judged (exit 1), not refused (exit 3).
  { example: 'twins/crash-on-request', binding: 'stdio-persistent', breaks: ['AHP-STDIO-001'] },
  // It dies on the two requests it cannot process (no params, no event): both of their cases fail,
  // as one problem; the plain request after each meets a new process, and no other case sends one.
  {
    example: 'twins/crash-on-request-without-event',
    binding: 'stdio-persistent',
    breaks: ['AHP-RPC-001'],
    problems: 1,
  },
  // It dies on the tool.before without a tool and on the one whose tool has no input: both of
  // their cases fail, as one problem, and every valid request is answered.
  {
    example: 'twins/crash-on-missing-tool-input',
    binding: 'stdio-persistent',
    breaks: ['AHP-RPC-001'],
    problems: 1,
  },
  // Only stdio sends a line that is not JSON. It dies on it: that case fails, and the code case
  // sharing its run is blocked by it.
  {
    example: 'twins/crash-on-line-not-json',
    binding: 'stdio-persistent',
    breaks: ['AHP-RPC-001'],
    problems: 1,
  },
  // It dies on the line null (JSON, but no object): that case fails, and the code case sharing
  // its run is blocked by it.
  {
    example: 'twins/crash-on-json-null',
    binding: 'stdio-persistent',
    breaks: ['AHP-RPC-001'],
    problems: 1,
  },
  // It answers that line with id null but -32600: only the SHOULD case of the code warns.
  {
    example: 'twins/parse-error-code',
    binding: 'stdio-persistent',
    breaks: [],
    warnings: ['AHP-RPC-001'],
    problems: 1,
  },
  // It answers the line that is JSON but no Request object with id null but -32601: only the
  // SHOULD case of its code warns.
  {
    example: 'twins/invalid-request-code',
    binding: 'stdio-persistent',
    breaks: [],
    warnings: ['AHP-RPC-001'],
    problems: 1,
  },
];

/** The twins whose defect any binding shows, run over HTTP, plus the HTTP-only ones. */
export const BROKEN_HTTP_RUNS: readonly SelfTestCase[] = [
  { example: 'twins/wrong-id', binding: 'http', breaks: ['AHP-RPC-001'] },
  { example: 'twins/wrong-version', binding: 'http', breaks: ['AHP-VER-001'] },
  { example: 'twins/no-version-error', binding: 'http', breaks: ['AHP-VER-001'] },
  { example: 'twins/version-invalid-params', binding: 'http', breaks: ['AHP-VER-001'] },
  // Its very first reply is a JSON-RPC error to a valid request: judged, with a full report.
  { example: 'twins/demands-tool-call-id', binding: 'http', breaks: ['AHP-DEC-001'] },
  {
    example: 'twins/allow-when-permitted',
    binding: 'http',
    breaks: ['AHP-CAP-001'],
    allowInput: '{"command":"git status"}',
  },
  {
    example: 'twins/deny-everything',
    binding: 'http',
    breaks: [],
    token: true,
    untested: {
      requirements: ['AHP-CONTENT-001', 'AHP-CORE-003', 'AHP-CORE-004', 'AHP-DEC-001', 'AHP-EDIT-001'],
      reason: new RegExp(
        `never answered the allow input with no effects .*--allow-input|${NO_EDIT_RETURNED.source}`,
      ),
    },
  },
  {
    example: 'twins/deny-everything-with-message',
    binding: 'http',
    breaks: ['AHP-CAP-001'],
    // Its deny comes with an unadvertised member, so no valid deny was seen on the deny path either;
    // without a token the bearer case has nothing to watch.
    untested: {
      requirements: [
        'AHP-CONTENT-001',
        'AHP-CORE-003',
        'AHP-CORE-004',
        'AHP-DEC-001',
        'AHP-EDIT-001',
        'AHP-HTTP-001',
      ],
      reason: new RegExp(
        `never answered the allow input with no effects .*--allow-input|did not deny the --deny-input|no --bearer-token-env|${NO_EDIT_RETURNED.source}`,
      ),
    },
  },
  { example: 'twins/unadvertised-effect', binding: 'http', breaks: ['AHP-CAP-001'] },
  { example: 'twins/inject-json-part', binding: 'http', breaks: ['AHP-CONTENT-001'], problems: 1 },
  { example: 'twins/modify-input-as-string', binding: 'http', breaks: ['AHP-EDIT-001'], problems: 1 },
  { example: 'twins/empty-deny-reason', binding: 'http', breaks: ['AHP-DEC-001'] },
  { example: 'twins/inconsistent-duplicate', binding: 'http', breaks: ['AHP-CORE-004'] },
  { example: 'twins/unknown-event-accepted', binding: 'http', breaks: ['AHP-CORE-003'] },
  { example: 'twins/unknown-method-accepted', binding: 'http', breaks: ['AHP-RPC-002'] },
  // Errors for the notifications it cannot process, silence for a valid one: the five cases of
  // unprocessable notifications fail, as one problem, and nothing else does.
  {
    example: 'twins/answers-unprocessable-notifications',
    binding: 'http',
    breaks: ['AHP-RPC-002'],
    problems: 1,
  },
  // It decides a hooks/intercept sent without an id: only that notification's case fails.
  {
    example: 'twins/answers-intercept-notifications',
    binding: 'http',
    breaks: ['AHP-RPC-002'],
    problems: 1,
  },
  // The draft's Base Protocol profile makes each defined code a MUST: -32001 (version), -32002
  // (event) and JSON-RPC 2.0's -32601 (method).
  {
    example: 'twins/generic-error-codes',
    binding: 'http',
    breaks: ['AHP-CORE-003', 'AHP-RPC-002', 'AHP-VER-001'],
  },
  { example: 'twins/http-wrong-content-type', binding: 'http', breaks: ['AHP-HTTP-001'] },
  { example: 'twins/http-notification-body', binding: 'http', breaks: ['AHP-HTTP-001'] },
  { example: 'twins/http-echoes-token', binding: 'http', breaks: ['AHP-HTTP-001'], token: true },
];
