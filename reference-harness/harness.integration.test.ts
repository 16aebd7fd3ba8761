import { existsSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FailureClass } from '../protocol/failure-classes.js';
import type { JsonValue } from '../protocol/json.js';
import { createHarness, SYNTHETIC_DENIAL_REASON, type Harness } from './index.js';
import {
  interceptor,
  MARGIN,
  observer,
  registrationDoc as registration,
  scriptedCall as call,
  scriptedStdio as stdio,
  startScriptedHttpBackend,
  tempFiles,
  type ScriptedHttpBackend,
} from './test-backends/harness-it-support.js';

const temp = tempFiles();
const tempFile = temp.file;
afterAll(() => temp.remove());

const open: Harness[] = [];
function harness(reg: JsonValue, extra: Record<string, unknown> = {}): Harness {
  const h = createHarness({ registration: reg, env: {}, killGraceMs: MARGIN.killGraceMs, ...extra });
  open.push(h);
  return h;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

let http: ScriptedHttpBackend;
let baseUrl = '';
const requests = () => http.requests;
beforeAll(async () => {
  http = await startScriptedHttpBackend();
  baseUrl = http.url;
});
afterAll(() => http.close());

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

// A persistent backend's replies are correlated by id: one under another id answers nothing, and
// the call meets its deadline (transports/stdio-persistent.test.ts).
const PERSISTENT_CASES = STDIO_CASES.filter(([mode]) => mode !== 'id-mismatch');

const transports: Array<[string, () => JsonValue, Array<[string, FailureClass]>]> = [
  ['stdio persistent', () => stdio('persistent'), PERSISTENT_CASES],
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
    const before = requests().length;
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
    expect(requests().length).toBe(before);
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
    expect(requests().at(-1)?.headers.authorization).toBe('Bearer it-secret-token');
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
