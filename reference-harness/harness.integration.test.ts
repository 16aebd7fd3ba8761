import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FailureClass, FailurePolicy } from '../protocol/failure-classes.js';
import type { JsonValue } from '../protocol/json.js';
import { createHarness, SYNTHETIC_DENIAL_REASON, type Harness, type InvokeInput } from './index.js';
import { handleCounts, isGone } from './test-backends/helpers.js';

/**
 * Real processes and sockets, so real time. Margins are generous on purpose: this 2-core VM is
 * noisy and a node child takes ~150 ms to boot, so no bound here is near a typical cost.
 */
const MARGIN = {
  /** Deadline for calls that should be answered: several spawns' worth. */
  answerMs: 5000,
  /** Deadline for calls meant to time out: short, since it is always spent in full. */
  hangMs: 400,
  /** SIGTERM -> SIGKILL grace given to the harness. */
  killGraceMs: 300,
  /** "At once" after close or cancel, whatever the backend does. */
  promptMs: 1000,
} as const;

const SCRIPT = fileURLToPath(new URL('./test-backends/harness-scripted-backend.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ahp-harness-it-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let fileSeq = 0;
const tempFile = (name: string) => join(dir, `${name}-${++fileSeq}`);

type Lifecycle = 'persistent' | 'per_event';
const stdio = (lifecycle: Lifecycle, ...flags: string[]): JsonValue => ({
  type: 'stdio',
  command: process.execPath,
  args: [SCRIPT, ...flags],
  lifecycle,
});

function interceptor(policy: FailurePolicy, timeoutMs: number): JsonValue {
  return {
    events: ['tool.before'],
    mode: 'intercept',
    timeoutMs,
    failurePolicy: policy,
    content: { default: 'omit' },
  };
}
const observer: JsonValue = { events: ['tool.*'], mode: 'observe', content: { default: 'omit' } };

function registration(
  hooks: Array<{ id: string; transport: JsonValue; subs: JsonValue[]; auth?: JsonValue }>,
): JsonValue {
  return {
    protocolVersion: 'draft',
    hooks: hooks.map((h) => ({
      id: h.id,
      transport: h.transport,
      ...(h.auth ? { authentication: h.auth } : {}),
      subscriptions: h.subs,
    })),
  };
}

let callSeq = 0;
const call = (input: Record<string, JsonValue>): InvokeInput => ({
  session: { id: 'sess_it' },
  call: { id: `call_${++callSeq}` },
  tool: { name: 'Bash', input },
});

const open: Harness[] = [];
function harness(reg: JsonValue, extra: Record<string, unknown> = {}): Harness {
  const h = createHarness({ registration: reg, env: {}, killGraceMs: MARGIN.killGraceMs, ...extra });
  open.push(h);
  return h;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

// ---------------------------------------------------------------- HTTP backend (in-process, port 0)

const requests: Array<{ body: string; headers: IncomingMessage['headers'] }> = [];
const sockets = new Set<Socket>();
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    requests.push({ body, headers: req.headers });
    answer(
      JSON.parse(body) as {
        id?: string;
        params?: { event?: { tool?: { input?: Record<string, unknown> } } };
      },
      res,
    );
  });
});
server.on('connection', (s) => {
  sockets.add(s);
  s.on('close', () => sockets.delete(s));
});

function answer(
  msg: { id?: string; params?: { event?: { tool?: { input?: Record<string, unknown> } } } },
  res: ServerResponse,
): void {
  if (msg.id === undefined) {
    res.writeHead(204).end();
    return;
  }
  const json = (value: unknown, status = 200) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  };
  const ok = (effects: unknown[]) =>
    json({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: 'draft', effects } });
  switch (msg.params?.event?.tool?.input?.mode) {
    case 'deny':
      return ok([{ type: 'deny', reason: 'Denied by the HTTP backend.' }]);
    case 'hang':
      return;
    case 'status-500':
      return json({ error: 'internal' }, 500);
    case 'garbage':
      res.writeHead(200, { 'content-type': 'application/json' }).end('<html>oops</html>');
      return;
    case 'rpc-error':
      return json({ jsonrpc: '2.0', id: msg.id, error: { code: -32004, message: 'backend exploded' } });
    case 'id-mismatch':
      return json({ jsonrpc: '2.0', id: `${msg.id}-x`, result: { protocolVersion: 'draft', effects: [] } });
    default:
      return ok([]);
  }
}

let baseUrl = '';
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ahp`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => server.close(() => r()));
});

// ---------------------------------------------------------------- policies per failure class

const STDIO_CASES: Array<[string, FailureClass]> = [
  ['garbage', 'malformed'],
  ['id-mismatch', 'id-mismatch'],
  ['rpc-error', 'jsonrpc-error'],
  ['unsupported', 'unsupported'],
  ['missing-fields', 'missing-fields'],
  ['invalid-effects', 'invalid-effects'],
  ['exit-1', 'process'],
];
const HTTP_CASES: Array<[string, FailureClass]> = [
  ['status-500', 'http-status'],
  ['garbage', 'malformed'],
  ['rpc-error', 'jsonrpc-error'],
  ['id-mismatch', 'id-mismatch'],
];

const transports: Array<[string, () => JsonValue, Array<[string, FailureClass]>]> = [
  ['stdio persistent', () => stdio('persistent'), STDIO_CASES],
  ['stdio per_event', () => stdio('per_event'), STDIO_CASES],
  ['http', () => ({ type: 'http', url: baseUrl }), HTTP_CASES],
];

describe.each(transports)('over %s', (_name, transport, cases) => {
  it.each(['fail-open', 'fail-closed'] as const)(
    'applies %s to each failure class, and a deny is explicit',
    async (policy) => {
      const h = harness(
        registration([
          { id: 'com.example.policy', transport: transport(), subs: [interceptor(policy, MARGIN.answerMs)] },
        ]),
      );
      for (const [mode, failureClass] of cases) {
        const r = await h.invoke(call({ mode }));
        expect(r.audit[0], mode).toMatchObject({ outcome: 'operational-failure', failureClass, policy });
        if (policy === 'fail-open') expect(r, mode).toMatchObject({ decision: 'continue', synthetic: false });
        else
          expect(r, mode).toMatchObject({
            decision: 'deny',
            synthetic: true,
            reason: SYNTHETIC_DENIAL_REASON,
          });
      }
      const denied = await h.invoke(call({ mode: 'deny' }));
      expect(denied).toMatchObject({ decision: 'deny', synthetic: false });
      expect(denied.reason).toMatch(/^Denied by the (scripted|HTTP) backend\.$/);
      expect(denied.audit[0]).toMatchObject({ outcome: 'deny', synthetic: false });
      const fine = await h.invoke(call({ mode: 'none' }));
      expect(fine).toMatchObject({ decision: 'continue', interrupted: false });
      expect(fine.transcript.map((t) => t.direction)).toEqual(['out', 'in']);
    },
  );

  it('enforces the deadline on a hanging backend under both policies', async () => {
    const h = harness(
      registration([
        { id: 'com.example.open', transport: transport(), subs: [interceptor('fail-open', MARGIN.hangMs)] },
        {
          id: 'com.example.closed',
          transport: transport(),
          subs: [interceptor('fail-closed', MARGIN.hangMs)],
        },
      ]),
    );
    const started = performance.now();
    const r = await h.invoke(call({ mode: 'hang' }));
    expect(performance.now() - started).toBeLessThan(2 * MARGIN.hangMs + MARGIN.promptMs);
    expect(r).toMatchObject({ decision: 'deny', synthetic: true, interrupted: false });
    expect(r.audit.map((a) => [a.outcome, a.failureClass])).toEqual([
      ['operational-failure', 'deadline-exceeded'],
      ['operational-failure', 'deadline-exceeded'],
    ]);
  });
});

// ---------------------------------------------------------------- retries, late replies, observers

describe('end to end', () => {
  it('retries a failed request with the byte-identical frame inside the deadline', async () => {
    const record = tempFile('record');
    const h = harness(
      registration([
        {
          id: 'com.example.policy',
          transport: stdio('persistent', `record=${record}`),
          subs: [interceptor('fail-closed', MARGIN.answerMs)],
        },
      ]),
      { retries: 2 },
    );
    const r = await h.invoke(call({ mode: 'fail-first', failures: 1, stateFile: tempFile('state') }));
    expect(r).toMatchObject({ decision: 'continue' });
    expect(r.audit[0]).toMatchObject({ outcome: 'no-effect', attempts: 2 });
    const lines = readFileSync(record, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(lines[1]);
  });

  it('ignores a late reply over persistent stdio except for an audit note', async () => {
    const h = harness(
      registration([
        {
          id: 'com.example.policy',
          transport: stdio('persistent'),
          subs: [interceptor('fail-open', MARGIN.hangMs)],
        },
      ]),
    );
    // The reply comes after the deadline however long the spawn took; the process still listens then.
    const r = await h.invoke(call({ mode: 'late', delayMs: MARGIN.hangMs + 200 }));
    expect(r).toMatchObject({ decision: 'continue', interrupted: false });
    expect(r.audit[0]).toMatchObject({ failureClass: 'deadline-exceeded' });
    await vi.waitFor(() => expect(r.audit[0]?.lateResponse).toBeDefined(), { timeout: MARGIN.answerMs });
    expect(r).toMatchObject({ decision: 'continue', interrupted: false });
  });

  it('after an HTTP deny, the uncalled stdio interceptor and the observer get hooks/observe', async () => {
    const record = tempFile('record');
    const h = harness(
      registration([
        {
          id: 'com.example.http',
          transport: { type: 'http', url: baseUrl },
          subs: [interceptor('fail-open', MARGIN.answerMs)],
        },
        {
          id: 'com.example.stdio',
          transport: stdio('persistent', `record=${record}`),
          subs: [interceptor('fail-closed', MARGIN.answerMs), observer],
        },
      ]),
    );
    const r = await h.invoke(call({ mode: 'deny' }));
    expect(r).toMatchObject({ decision: 'deny', synthetic: false, reason: 'Denied by the HTTP backend.' });
    // A stdio notification is delivered once written to the pipe; the child records it a moment later.
    const read = () => (existsSync(record) ? readFileSync(record, 'utf8').trim().split('\n') : []);
    await vi.waitFor(() => expect(read()).toHaveLength(2), { timeout: MARGIN.answerMs });
    const lines = read().map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const line of lines) {
      expect(line).toEqual({
        jsonrpc: '2.0',
        method: 'hooks/observe',
        params: { protocolVersion: 'draft', event: r.effectiveEvent },
      });
    }
  });

  it('bearer auth: a missing token never sends unauthenticated, and the policy applies', async () => {
    const auth = { type: 'bearer', tokenEnv: 'AHP_IT_TOKEN' };
    const before = requests.length;
    for (const policy of ['fail-open', 'fail-closed'] as const) {
      const h = harness(
        registration([
          {
            id: 'com.example.http',
            transport: { type: 'http', url: baseUrl },
            auth,
            subs: [interceptor(policy, MARGIN.answerMs)],
          },
        ]),
      );
      const r = await h.invoke(call({ mode: 'none' }));
      expect(r.audit[0]).toMatchObject({ outcome: 'operational-failure', failureClass: 'auth', policy });
      expect(r.decision).toBe(policy === 'fail-open' ? 'continue' : 'deny');
    }
    expect(requests.length).toBe(before);
    const h = harness(
      registration([
        {
          id: 'com.example.http',
          transport: { type: 'http', url: baseUrl },
          auth,
          subs: [interceptor('fail-closed', MARGIN.answerMs)],
        },
      ]),
      { env: { AHP_IT_TOKEN: 'it-secret-token' } },
    );
    const r = await h.invoke(call({ mode: 'none' }));
    expect(r.decision).toBe('continue');
    expect(requests.at(-1)?.headers.authorization).toBe('Bearer it-secret-token');
    expect(JSON.stringify(r.event)).not.toContain('it-secret-token');
  });

  it('a token provider slower than the deadline is a deadline failure, and the provider is left alone', async () => {
    let calls = 0;
    const provider = {
      getToken: ({ signal }: { signal: AbortSignal }) =>
        new Promise<string>((resolve, reject) => {
          calls++;
          const t = setTimeout(() => resolve('late-token'), MARGIN.hangMs * 3);
          signal.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)), { once: true });
        }),
    };
    const auth = { type: 'bearer', tokenRef: 'vault:policy' };
    const h = harness(
      registration([
        {
          id: 'com.example.http',
          transport: { type: 'http', url: baseUrl },
          auth,
          subs: [interceptor('fail-closed', MARGIN.hangMs)],
        },
      ]),
      { tokenProviders: { 'vault:policy': provider } },
    );
    const r = await h.invoke(call({ mode: 'none' }));
    expect(r).toMatchObject({ decision: 'deny', synthetic: true });
    expect(r.audit[0]).toMatchObject({ failureClass: 'deadline-exceeded' });
    expect(calls).toBe(1);
  });
});

// ---------------------------------------------------------------- shutdown

describe('close()', () => {
  it('reaps a SIGTERM-ignoring backend by SIGKILL after the grace, and leaves no handle open', async () => {
    const baseline = await handleCounts();
    const h = createHarness({
      registration: registration([
        {
          id: 'com.example.stubborn',
          transport: stdio('persistent', 'ignore-sigterm'),
          subs: [interceptor('fail-open', MARGIN.answerMs)],
        },
      ]),
      env: {},
      killGraceMs: MARGIN.killGraceMs,
    });
    expect((await h.invoke(call({ mode: 'none' }))).decision).toBe('continue');
    const pids = h.livePids();
    expect(pids).toHaveLength(1);
    const started = performance.now();
    await h.close();
    expect(performance.now() - started).toBeGreaterThanOrEqual(MARGIN.killGraceMs - 50);
    expect(pids.every(isGone)).toBe(true);
    expect(h.livePids()).toEqual([]);
    await expect(h.invoke(call({ mode: 'none' }))).rejects.toMatchObject({ code: 'harness-closed' });
    expect(await handleCounts()).toEqual(baseline);
  });

  it('ends in-flight calls at once as closed, over stdio and HTTP', async () => {
    const h = createHarness({
      registration: registration([
        {
          id: 'com.example.http',
          transport: { type: 'http', url: baseUrl },
          subs: [interceptor('fail-open', MARGIN.answerMs)],
        },
        {
          id: 'com.example.stdio',
          transport: stdio('per_event'),
          subs: [interceptor('fail-open', MARGIN.answerMs)],
        },
      ]),
      env: {},
      killGraceMs: MARGIN.killGraceMs,
    });
    const seen = requests.length;
    const pending = h.invoke(call({ mode: 'hang' }));
    await vi.waitFor(() => expect(requests.length).toBeGreaterThan(seen), { timeout: MARGIN.answerMs });
    const started = performance.now();
    await h.close();
    const r = await pending;
    expect(performance.now() - started).toBeLessThan(MARGIN.promptMs);
    expect(r).toMatchObject({ decision: 'deny', interrupted: true, ending: 'closed' });
    expect(r.audit.map((a) => a.outcome)).toEqual(['interrupted', 'skipped']);
    expect(h.livePids()).toEqual([]);
  });

  it('cancellation ends a pending per_event request at once and reaps the child', async () => {
    const h = harness(
      registration([
        {
          id: 'com.example.stdio',
          transport: stdio('per_event'),
          subs: [interceptor('fail-open', MARGIN.answerMs)],
        },
      ]),
    );
    const caller = new AbortController();
    const pending = h.invoke(call({ mode: 'hang' }), { signal: caller.signal });
    await vi.waitFor(() => expect(h.livePids()).toHaveLength(1), { timeout: MARGIN.answerMs });
    const pids = h.livePids();
    caller.abort();
    const r = await pending;
    expect(r).toMatchObject({ decision: 'deny', interrupted: true, ending: 'cancelled' });
    await h.close();
    expect(pids.every(isGone)).toBe(true);
  });
});
