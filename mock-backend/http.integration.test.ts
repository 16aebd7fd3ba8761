/**
 * Every built-in behaviour that applies to HTTP reaches a raw-socket client exactly as the engine
 * planned it: status, headers, body bytes, timing, and how the exchange ends (end, reset, hang).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { interceptRequest, observeNotification } from './engine-test-frames.js';
import { BUILTIN_SCENARIOS, startHttpMock, type HttpMock } from './index.js';
import { plannedExchange, shortened } from './shells/test-support/planned.js';
import { rawRequest, type RawResponse } from './shells/test-support/raw-http.js';
import { MOCK_PROCESS_MARGINS } from './shells/test-support/stdio-process.js';

/** Timers may fire up to a millisecond early against performance.now(); allow that much. */
const TIMER_SLACK_MS = 2;
/** A planned body spread at least this long must visibly arrive in parts. */
const SPREAD_BODY_MS = 300;

let mock: HttpMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

function requestBody(name: string): string {
  return JSON.stringify(
    name === 'answer-notification' ? observeNotification('n1') : interceptRequest({ eventId: 'e1' }),
  );
}

/** Sends one request and resolves with the raw response; a hang is observed for a quiet margin, then cut by close(). */
async function exchange(
  m: HttpMock,
  body: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const response = rawRequest(m.url, { body, headers });
  const record = await m.waitForDelivery(() => true, { timeoutMs: MOCK_PROCESS_MARGINS.replyMs });
  if (plannedExchange(m.recordings(), record.delivery).ending === 'hang') {
    await new Promise((r) => setTimeout(r, MOCK_PROCESS_MARGINS.quietMs));
    await m.close();
  }
  return response;
}

function expectAsPlanned(res: RawResponse, m: HttpMock, delivery: number): void {
  const plan = plannedExchange(m.recordings(), delivery);
  if (plan.head) {
    expect(res.status).toBe(plan.head.status);
    for (const [name, value] of Object.entries(plan.head.headers)) expect(res.headers[name]).toBe(value);
  }
  expect(res.body.toString('base64')).toBe(plan.body.toString('base64'));
  switch (plan.ending) {
    case 'end':
      expect(res.complete).toBe(true);
      expect(res.error).toBeUndefined();
      break;
    case 'reset':
      // An RST that lands after the data reads as ECONNRESET, one that lands with it as EOF (the
      // kernel drops the error once the queued bytes are read); either way the response is cut short.
      expect(res.complete).toBe(false);
      expect([undefined, 'ECONNRESET']).toContain(res.error);
      break;
    case 'hang':
      expect(res.raw.length).toBe(0);
      break;
    default:
      throw new Error(`ending ${plan.ending} is never planned for HTTP`);
  }
  // Offsets count from the body's arrival at the mock, which is after the client wrote it, so a
  // byte due at +N ms can never reach the client earlier than N ms after its write.
  const [first] = res.chunkTimes;
  if (plan.firstWriteMs !== undefined && first !== undefined) {
    expect(first).toBeGreaterThanOrEqual(plan.firstWriteMs - TIMER_SLACK_MS);
  }
  if (
    plan.lastWriteMs !== undefined &&
    plan.firstWriteMs !== undefined &&
    plan.lastWriteMs > plan.firstWriteMs
  ) {
    expect(res.chunkTimes.at(-1)).toBeGreaterThanOrEqual(plan.lastWriteMs - TIMER_SLACK_MS);
    // A body spread over hundreds of ms starts arriving well before its end (only a client
    // stalled for that long could see it all at once).
    if (plan.lastWriteMs - plan.firstWriteMs >= SPREAD_BODY_MS) expect(first).toBeLessThan(plan.lastWriteMs);
  }
}

const httpBuiltins = Object.entries(BUILTIN_SCENARIOS).filter(([, b]) => b.transports.includes('http'));

describe('HTTP: every built-in behaviour reaches the client as planned', () => {
  it('covers every HTTP behaviour kind of the built-ins', () => {
    const kinds = new Set(httpBuiltins.flatMap(([, b]) => b.scenario.rules.map((r) => r.behaviour.kind)));
    for (const kind of [
      'http-status',
      'http-redirect',
      'http-unauthorized',
      'wrong-content-type',
      'reset',
      'hang',
      'slow-body',
      'delay',
    ]) {
      expect(kinds).toContain(kind);
    }
  });

  for (const [name, builtin] of httpBuiltins) {
    it(name, async () => {
      mock = await startHttpMock({ scenario: shortened(builtin.scenario), control: false });
      const auth = builtin.scenario.http?.requireBearer;
      const res = await exchange(
        mock,
        requestBody(name),
        auth ? { authorization: `Bearer ${auth.token}` } : {},
      );
      expectAsPlanned(res, mock, 1);
      expect(mock.recordings({ type: 'violation' })).toEqual([]);
    });
  }
});

describe('HTTP: exact bytes of key behaviours', () => {
  it('answers [] with a Content-Length body on a keep-alive-friendly response', async () => {
    mock = await startHttpMock({ scenario: { rules: [] }, control: false });
    const res = await rawRequest(mock.url, { body: requestBody('x') });
    const text = '{"jsonrpc":"2.0","id":"e1","result":{"protocolVersion":"draft","effects":[]}}';
    expect(res.raw.toString()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(res.headers['content-length']).toBe(String(text.length));
    expect(res.body.toString()).toBe(text);
  });

  it('sends 401 with the challenge when the bearer token is missing or wrong, and records why', async () => {
    mock = await startHttpMock({
      scenario: BUILTIN_SCENARIOS['http-bearer-required']!.scenario,
      control: false,
    });
    const missing = await rawRequest(mock.url, { body: requestBody('x') });
    const wrong = await rawRequest(mock.url, {
      body: requestBody('x'),
      headers: { authorization: 'Bearer nope' },
    });
    for (const res of [missing, wrong]) {
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="ahp-mock"');
    }
    expect(mock.recordings({ type: 'violation' }).map((v) => v.type === 'violation' && v.code)).toEqual([
      'auth-missing',
      'auth-wrong',
    ]);
  });

  it('resets mid-response: the first 20 bytes arrive, then the connection is cut', async () => {
    mock = await startHttpMock({
      scenario: BUILTIN_SCENARIOS['http-reset-mid-response']!.scenario,
      control: false,
    });
    const res = await rawRequest(mock.url, { body: requestBody('x') });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('{"jsonrpc":"2.0","id');
    expect(res.complete).toBe(false);
    expect([undefined, 'ECONNRESET']).toContain(res.error);
  });

  it('never follows its own redirect: 307 with the Location, no body', async () => {
    mock = await startHttpMock({ scenario: BUILTIN_SCENARIOS['http-redirect']!.scenario, control: false });
    const res = await rawRequest(mock.url, { body: requestBody('x') });
    expect(res.status).toBe(307);
    expect(res.headers.location).toBe('http://127.0.0.1:9/elsewhere');
    expect(res.body.length).toBe(0);
  });

  it('records a GET as a violation and answers 405 with Allow: POST', async () => {
    mock = await startHttpMock({ scenario: { rules: [] }, control: false });
    const res = await rawRequest(mock.url, { method: 'GET' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
    // A GET carries no body, so the empty frame is recorded too.
    expect(mock.recordings({ type: 'violation' }).map((v) => v.type === 'violation' && v.code)).toEqual([
      'empty-frame',
      'http-method',
    ]);
  });
});
