/**
 * Built-in named scenarios, one (at least) per behaviour, usable as `--scenario <name>`. They are
 * plain data and go through the same parser as files (builtins.test.ts proves each one).
 */
import type { JsonValue } from '../protocol/json.js';
import type { Behaviour, Scenario, Transport } from './model.js';

/** A built-in scenario with what it does, in one line, and where it applies. */
export interface BuiltinScenario {
  description: string;
  transports: readonly Transport[];
  scenario: Scenario;
}

const ALL: readonly Transport[] = ['stdio', 'http', 'msw'];
const STDIO: readonly Transport[] = ['stdio'];
const HTTP: readonly Transport[] = ['http', 'msw'];

/** Late enough to pass any deadline a suite is likely to configure for a "late reply" case. */
export const LATE_REPLY_MS = 3000;

function every(
  name: string,
  description: string,
  behaviour: Behaviour,
  transports = ALL,
  extra: Partial<Scenario> = {},
) {
  return [
    name,
    { description, transports, scenario: { name, description, rules: [{ behaviour }], ...extra } },
  ] as const;
}

function respondWith(effects: JsonValue): Behaviour {
  return { kind: 'respond', effects };
}

const entries = [
  every('respond-empty', 'Answers every request with an empty effect list.', { kind: 'respond' }),
  every('deny', 'Denies every request with one deny effect.', {
    kind: 'deny',
    reason: 'Blocked by the mock backend.',
  }),
  [
    'deny-dangerous-command',
    {
      description: 'Denies tool calls whose tool.input.command contains "rm -rf"; answers [] otherwise.',
      transports: ALL,
      scenario: {
        name: 'deny-dangerous-command',
        rules: [
          {
            match: { fields: [{ path: 'tool.input.command', contains: 'rm -rf' }] },
            behaviour: { kind: 'deny', reason: 'Destructive command.' },
          },
          { behaviour: { kind: 'respond' } },
        ],
      },
    },
  ] as const,
  every(
    'effects-unadvertised',
    'Answers an ask effect (advertise only deny to see it unadvertised).',
    respondWith([{ type: 'ask' }]),
  ),
  every('effects-unknown', 'Answers an effect of an unknown type.', respondWith([{ type: 'teleport' }])),
  every(
    'effects-malformed',
    'Answers a deny effect without its required reason.',
    respondWith([{ type: 'deny' }]),
  ),
  every(
    'effects-not-an-array',
    'Answers effects as an object instead of an array.',
    respondWith({ type: 'deny', reason: 'x' }),
  ),
  every(
    'effects-conflicting-return-deny',
    'Answers return together with deny (conflicting at user.elicitation.request).',
    respondWith([
      { type: 'return', value: { action: 'accept' } },
      { type: 'deny', reason: 'Conflicts with the return.' },
    ]),
  ),
  every(
    'effects-conflicting-continue',
    'Answers a flow continue (conflicting when no continuation allowance remains).',
    respondWith([{ type: 'flow', operation: 'continue' }]),
  ),
  every(
    'effects-conflicting-legacy',
    'Answers two denies (conflicting for revision "0.1", which allows one effect).',
    respondWith([
      { type: 'deny', reason: 'First.' },
      { type: 'deny', reason: 'Second.' },
    ]),
  ),
  every('delay-then-respond', 'Answers [] after 200 ms.', {
    kind: 'delay',
    ms: 200,
    then: { kind: 'respond' },
  }),
  every('late-reply', `Answers [] after ${LATE_REPLY_MS} ms (past the harness deadline).`, {
    kind: 'delay',
    ms: LATE_REPLY_MS,
    then: { kind: 'respond' },
  }),
  every('hang', 'Never answers; keeps the process or connection open.', { kind: 'hang' }),
  every('no-reply', 'Never answers a request and ends the exchange (HTTP: 202 with no body).', {
    kind: 'silent',
  }),
  every('mismatched-id-string', 'Answers [] under another string id.', {
    kind: 'mismatched-id',
    id: 'not-the-request-id',
  }),
  every('mismatched-id-null', 'Answers [] under a null id.', { kind: 'mismatched-id', id: null }),
  every('mismatched-id-number', 'Answers [] under a numeric id.', { kind: 'mismatched-id', id: 1 }),
  every('malformed-utf8', 'Answers a reply holding the invalid UTF-8 sequence E2 82 28.', {
    kind: 'malformed-utf8',
  }),
  every(
    'malformed-utf8-split',
    'Like malformed-utf8, with the sequence split across two writes 5 ms apart.',
    {
      kind: 'malformed-utf8',
      split: true,
      splitDelayMs: 5,
    },
  ),
  every('malformed-json', 'Answers a reply cut off mid-object.', { kind: 'malformed-json' }),
  every('not-jsonrpc-no-version', 'Answers a reply without "jsonrpc".', {
    kind: 'not-jsonrpc',
    variant: 'no-jsonrpc',
  }),
  every('not-jsonrpc-result-and-error', 'Answers a reply with both result and error.', {
    kind: 'not-jsonrpc',
    variant: 'result-and-error',
  }),
  every('not-jsonrpc-batch', 'Answers a batch array holding the reply.', {
    kind: 'not-jsonrpc',
    variant: 'batch',
  }),
  every('not-jsonrpc-wrong-version', 'Answers a reply with "jsonrpc": "1.0".', {
    kind: 'not-jsonrpc',
    variant: 'wrong-jsonrpc',
  }),
  every('not-jsonrpc-no-id', 'Answers a reply without an id.', { kind: 'not-jsonrpc', variant: 'no-id' }),
  every('rpc-error-unsupported-version', 'Answers error -32001 with data.supported ["draft"].', {
    kind: 'rpc-error',
    code: -32001,
    data: { supported: ['draft'] },
  }),
  every('rpc-error-unsupported-event', 'Answers error -32002.', { kind: 'rpc-error', code: -32002 }),
  every('rpc-error-unavailable', 'Answers error -32003.', { kind: 'rpc-error', code: -32003 }),
  every('rpc-error-internal', 'Answers error -32004.', { kind: 'rpc-error', code: -32004 }),
  every('rpc-error-method-not-found', 'Answers error -32601.', { kind: 'rpc-error', code: -32601 }),
  every('wrong-protocol-version', 'Answers [] under protocolVersion "0.0-mock".', {
    kind: 'respond',
    protocolVersion: '0.0-mock',
  }),
  every('missing-protocol-version', 'Answers a result without protocolVersion.', {
    kind: 'respond',
    omit: ['protocolVersion'],
  }),
  every('missing-effects', 'Answers a result without effects.', { kind: 'respond', omit: ['effects'] }),
  every('raw-bytes', 'Writes the raw bytes 00 FF and a newline (the escape hatch).', {
    kind: 'raw',
    chunks: [{ base64: 'AP8K' }],
  }),
  every('slow-body', 'Answers [] in 16-byte chunks, one every 100 ms.', {
    kind: 'slow-body',
    chunkBytes: 16,
    intervalMs: 100,
  }),
  every('fail-first-2-then-respond', 'Answers -32003 to the first two attempts of an event id, then [].', {
    kind: 'sequence',
    steps: [{ kind: 'rpc-error', code: -32003 }, { kind: 'rpc-error', code: -32003 }, { kind: 'respond' }],
  }),
  every(
    'flaky-unavailable',
    'Answers -32003 with probability 0.5 (seed 1), else [].',
    {
      kind: 'probability',
      p: 0.5,
      behaviour: { kind: 'rpc-error', code: -32003 },
      otherwise: { kind: 'respond' },
    },
    ALL,
    { seed: 1 },
  ),
  [
    'answer-notification',
    {
      description:
        'Answers notifications too (a protocol violation, for testing harnesses); requests get [].',
      transports: ALL,
      scenario: {
        name: 'answer-notification',
        rules: [{ match: { message: 'any' }, behaviour: { kind: 'respond' } }],
      },
    },
  ] as const,
  every(
    'stdio-banner',
    'Prints a banner line on stdout at start, then answers [].',
    { kind: 'respond' },
    STDIO,
    {
      process: { banner: 'mock-backend ready' },
    },
  ),
  every('stdio-pretty', 'Answers [] pretty-printed over several lines.', { kind: 'pretty' }, STDIO),
  every('stdio-two-replies', 'Answers [] twice.', { kind: 'twice' }, STDIO),
  every('stdio-exit-before-reply', 'Exits with code 3 without answering.', { kind: 'exit', code: 3 }, STDIO),
  every(
    'stdio-exit-0-no-reply',
    'Exits with code 0 without answering (a missing response).',
    { kind: 'exit', code: 0 },
    STDIO,
  ),
  every(
    'stdio-exit-after-reply',
    'Answers [] then exits with code 1.',
    { kind: 'exit', code: 1, reply: { kind: 'respond' } },
    STDIO,
  ),
  every(
    'stdio-die-by-signal',
    'Kills itself with SIGKILL without answering.',
    { kind: 'signal', signal: 'SIGKILL' },
    STDIO,
  ),
  every(
    'stdio-close-stdout',
    'Closes stdout without answering; the process stays alive.',
    { kind: 'reset' },
    STDIO,
  ),
  every(
    'stdio-ignore-sigterm',
    'Ignores SIGTERM (only SIGKILL ends it) and never answers.',
    { kind: 'hang' },
    STDIO,
    {
      process: { ignoreSigterm: true },
    },
  ),
  every(
    'stdio-refuse-to-start',
    'Exits with code 1 at start, before reading stdin.',
    { kind: 'respond' },
    STDIO,
    {
      process: { refuseToStart: { exitCode: 1, message: 'mock-backend: refusing to start' } },
    },
  ),
  every(
    'http-500',
    'Answers HTTP 500 with a text body.',
    { kind: 'http-status', status: 500, body: { text: 'internal error' } },
    HTTP,
  ),
  every('http-503-no-body', 'Answers HTTP 503 with no body.', { kind: 'http-status', status: 503 }, HTTP),
  every(
    'http-wrong-content-type',
    'Answers a valid [] reply as text/plain.',
    { kind: 'wrong-content-type' },
    HTTP,
  ),
  every(
    'http-redirect',
    'Answers 307 to http://127.0.0.1:9/elsewhere (never to be followed).',
    {
      kind: 'http-redirect',
      location: 'http://127.0.0.1:9/elsewhere',
    },
    HTTP,
  ),
  every(
    'http-unauthorized',
    'Answers 401 with a WWW-Authenticate Bearer challenge.',
    { kind: 'http-unauthorized' },
    HTTP,
  ),
  every(
    'http-bearer-required',
    'Requires "Authorization: Bearer mock-token" (401 otherwise), then answers [].',
    { kind: 'respond' },
    HTTP,
    {
      http: { requireBearer: { token: 'mock-token' } },
    },
  ),
  every('http-reset', 'Destroys the connection before any response.', { kind: 'reset' }, HTTP),
  every(
    'http-reset-mid-response',
    'Sends headers and 20 bytes of the reply, then destroys the connection.',
    {
      kind: 'reset',
      afterBytes: 20,
    },
    HTTP,
  ),
  every('http-accept-no-answer', 'Accepts the request and never answers.', { kind: 'hang' }, HTTP),
];

/** Every built-in scenario by name. */
export const BUILTIN_SCENARIOS: Readonly<Record<string, BuiltinScenario>> = Object.fromEntries(entries);

/** The built-in names, sorted, for usage errors and `--help`. */
export function builtinNames(): string[] {
  return Object.keys(BUILTIN_SCENARIOS).sort();
}
