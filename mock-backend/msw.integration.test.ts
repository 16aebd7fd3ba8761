/**
 * Every built-in behaviour that applies to msw reaches an in-process `fetch` exactly as planned.
 * setupServer lives alone in this file: its 'error' strategy would block real servers beside it.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { interceptRequest, observeNotification } from './engine-test-frames.js';
import { BUILTIN_SCENARIOS, createMock, mswHandlers } from './index.js';
import { plannedExchange, shortened } from './shells/test-support/planned.js';
import { MOCK_PROCESS_MARGINS } from './shells/test-support/stdio-process.js';

const URL_ = 'http://mock.ahp.test/hooks';
const TIMER_SLACK_MS = 2;

const mock = createMock({ scenario: { rules: [] } });
const server = setupServer(...mswHandlers(mock, { url: URL_ }));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => mock.reset());

function body(name: string): string {
  return JSON.stringify(
    name === 'answer-notification' ? observeNotification('n1') : interceptRequest({ eventId: 'e1' }),
  );
}

interface Observed {
  status?: number;
  headers?: Headers;
  chunks: Array<{ at: number; bytes: Uint8Array }>;
  /** How the exchange ended at the client. */
  ending: 'end' | 'network-error' | 'body-error' | 'timeout';
}

/**
 * Fetches and reads the whole body. Once the request is recorded, a planned hang is given a quiet
 * margin and then aborted; anything else gets the generous reply margin.
 */
async function observe(init: RequestInit): Promise<Observed> {
  const start = performance.now();
  const abort = new AbortController();
  const safety = setTimeout(
    () => abort.abort(new DOMException('reply margin passed', 'TimeoutError')),
    MOCK_PROCESS_MARGINS.replyMs,
  );
  const seenBefore = mock.deliveries().length;
  void mock
    .waitForDelivery((r) => r.delivery > seenBefore, { timeoutMs: MOCK_PROCESS_MARGINS.replyMs })
    .then(
      (r) => {
        if (plannedExchange(mock.recordings(), r.delivery).ending !== 'hang') return;
        setTimeout(
          () => abort.abort(new DOMException('quiet margin passed', 'TimeoutError')),
          MOCK_PROCESS_MARGINS.quietMs,
        );
      },
      () => undefined,
    );
  let response: Response;
  try {
    response = await fetch(URL_, { method: 'POST', redirect: 'manual', signal: abort.signal, ...init });
  } catch (e) {
    clearTimeout(safety);
    return { chunks: [], ending: (e as Error).name === 'TimeoutError' ? 'timeout' : 'network-error' };
  }
  const observed: Observed = {
    status: response.status,
    headers: response.headers,
    chunks: [],
    ending: 'end',
  };
  if (!response.body) return observed;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      observed.chunks.push({ at: performance.now() - start, bytes: value });
    }
  } catch {
    observed.ending = 'body-error';
  }
  clearTimeout(safety);
  return observed;
}

const mswBuiltins = Object.entries(BUILTIN_SCENARIOS).filter(([, b]) => b.transports.includes('msw'));

describe('msw: every built-in behaviour reaches fetch as planned', () => {
  for (const [name, builtin] of mswBuiltins) {
    it(name, async () => {
      mock.setScenario(shortened(builtin.scenario));
      const token = builtin.scenario.http?.requireBearer?.token;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (token) headers.authorization = `Bearer ${token}`;
      const seen = await observe({ body: body(name), headers });
      const plan = plannedExchange(mock.recordings(), 1);
      const bytes = Buffer.concat(seen.chunks.map((c) => c.bytes));
      expect(mock.recordings({ type: 'violation' })).toEqual([]);
      switch (plan.ending) {
        case 'end':
          expect(seen.ending).toBe('end');
          expect(seen.status).toBe(plan.head?.status);
          for (const [k, v] of Object.entries(plan.head?.headers ?? {})) expect(seen.headers?.get(k)).toBe(v);
          expect(bytes.toString('base64')).toBe(plan.body.toString('base64'));
          break;
        case 'reset':
          expect(seen.ending).toBe(plan.body.length > 0 ? 'body-error' : 'network-error');
          expect(bytes.toString('base64')).toBe(plan.body.toString('base64'));
          break;
        case 'hang':
          expect(seen.ending).toBe('timeout');
          break;
        default:
          throw new Error(`ending ${plan.ending} is never planned for msw`);
      }
      if (plan.lastWriteMs !== undefined && seen.chunks.length > 0) {
        expect(seen.chunks.at(-1)?.at).toBeGreaterThanOrEqual(plan.lastWriteMs - TIMER_SLACK_MS);
      }
    });
  }
});

describe('msw: shell specifics', () => {
  it('never resolves a hang, and the aborted fetch releases it', async () => {
    mock.setScenario({ rules: [{ behaviour: { kind: 'hang' } }] });
    const seen = await observe({ body: body('x'), headers: { 'content-type': 'application/json' } });
    expect(seen.ending).toBe('timeout');
    expect(mock.deliveries()).toHaveLength(1);
  });

  it('streams a slow body in parts, the last one no earlier than planned', async () => {
    mock.setScenario({ rules: [{ behaviour: { kind: 'slow-body', chunkBytes: 30, intervalMs: 60 } }] });
    const seen = await observe({ body: body('x'), headers: { 'content-type': 'application/json' } });
    const text = Buffer.concat(seen.chunks.map((c) => c.bytes)).toString();
    expect(JSON.parse(text)).toEqual({
      jsonrpc: '2.0',
      id: 'e1',
      result: { protocolVersion: 'draft', effects: [] },
    });
    const pieces = Math.ceil(text.length / 30);
    expect(seen.chunks.length).toBe(pieces);
    expect(seen.chunks.at(-1)?.at).toBeGreaterThanOrEqual((pieces - 1) * 60 - TIMER_SLACK_MS);
  });

  it('records when each action was carried out, a delayed write no earlier than planned', async () => {
    mock.setScenario({ rules: [{ behaviour: { kind: 'delay', ms: 20, then: { kind: 'respond' } } }] });
    await observe({ body: body('x') });
    const received = performance.now();
    const arrival = mock.deliveries()[0]?.at.monotonic ?? NaN;
    const outbound = mock.recordings({ type: 'outbound' });
    expect(outbound).toHaveLength(3);
    for (const e of outbound) {
      const at = e.type === 'outbound' ? (e.performedAt?.monotonic ?? NaN) : NaN;
      expect(at - arrival).toBeGreaterThanOrEqual(20);
      expect(at).toBeLessThanOrEqual(received);
    }
  });

  it('records the request as msw traffic with its method, path and headers', async () => {
    mock.setScenario({ rules: [] });
    await observe({ body: body('x'), headers: { 'content-type': 'application/json', 'x-probe': '1' } });
    const [record] = mock.deliveries();
    expect(record).toMatchObject({ transport: 'msw', kind: 'request', eventId: 'e1' });
    expect(record?.connectionId).toMatch(/^m\d+$/);
    expect(record?.http).toMatchObject({ method: 'POST', path: '/hooks', headers: { 'x-probe': '1' } });
  });
});
