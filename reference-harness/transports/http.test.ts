import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../protocol/clock.js';
import { bearerFromEnv, bearerFromProvider, type BearerSource } from '../auth/bearer.js';
import { startTestServer, type TestServer } from '../test-backends/http-test-server.js';
import {
  TEST_BACKEND_MARGINS,
  handleCounts,
  notificationFrame,
  recordingContext,
  requestFrame,
} from '../test-backends/helpers.js';
import type { BackendTransport, TokenProvider, TransportReply } from '../transport.js';
import { HttpTransportConfigError, createHttpTransport } from './http.js';

let server: TestServer;
const open: BackendTransport[] = [];
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
  await server.close();
});

function transport(extra: { auth?: BearerSource; url?: string; maxBodyBytes?: number } = {}) {
  const t = createHttpTransport({
    url: extra.url ?? server.url('/ahp/intercept?tenant=a'),
    clock: systemClock,
    ...(extra.auth ? { auth: extra.auth } : {}),
    ...(extra.maxBodyBytes === undefined ? {} : { maxBodyBytes: extra.maxBodyBytes }),
  });
  open.push(t);
  return t;
}

function expectFailure(reply: TransportReply | { ok: boolean }, failureClass: string, code: string): string {
  if (reply.ok || !('failure' in reply)) throw new Error(`expected ${code}, got ${JSON.stringify(reply)}`);
  expect(reply.failure).toMatchObject({ failureClass, code });
  return reply.failure.detail;
}

const reply = (status: number, body: string | Uint8Array, headers: Record<string, string> = {}) =>
  ((_req, res) => {
    res.writeHead(status, headers);
    res.end(body);
  }) satisfies Parameters<TestServer['handle']>[0];

describe('HTTP transport: requests', () => {
  it('POSTs the frame to the exact URL as JSON and returns the 200 JSON body', async () => {
    const t = transport();
    const ctx = recordingContext();
    const r = await t.request(requestFrame(1), ctx);
    expect(r).toMatchObject({ ok: true, message: { id: 1, result: { effects: [] } } });
    const seen = server.requests[0];
    expect(seen).toMatchObject({ method: 'POST', url: '/ahp/intercept?tenant=a', body: requestFrame(1) });
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(seen?.headers.authorization).toBeUndefined();
    expect(ctx.frames.map((f) => f.direction)).toEqual(['out', 'in']);
    expect(t.livePids()).toEqual([]);
  });

  it('keeps the connection alive between requests', async () => {
    const t = transport();
    await t.request(requestFrame(1), recordingContext());
    await t.request(requestFrame(2), recordingContext());
    expect(server.requests[1]?.remotePort).toBe(server.requests[0]?.remotePort);
  });

  it('accepts a +json media type with parameters', async () => {
    server.handle(
      reply(200, '{"jsonrpc":"2.0","id":1,"result":{}}', { 'content-type': 'application/vnd.ahp+json; v=1' }),
    );
    expect(await transport().request(requestFrame(1), recordingContext())).toMatchObject({ ok: true });
  });

  it.each([
    [
      'a non-JSON media type',
      reply(200, '{"jsonrpc":"2.0"}', { 'content-type': 'text/plain' }),
      'malformed',
      'http.media-type',
    ],
    ['no media type', reply(200, '{"jsonrpc":"2.0"}'), 'malformed', 'http.media-type'],
    [
      'invalid UTF-8',
      reply(200, new Uint8Array([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d]), {
        'content-type': 'application/json',
      }),
      'malformed',
      'http.body-not-utf8',
    ],
    [
      'a body that is not JSON',
      reply(200, '{"jsonrpc":', { 'content-type': 'application/json' }),
      'malformed',
      'http.body-not-json',
    ],
    [
      'an empty body',
      reply(200, '', { 'content-type': 'application/json' }),
      'malformed',
      'http.body-not-json',
    ],
    [
      'a body over the cap',
      reply(200, `"${'x'.repeat(5000)}"`, { 'content-type': 'application/json' }),
      'malformed',
      'http.body-too-large',
    ],
    ['a 500', reply(500, 'oops', { 'content-type': 'application/json' }), 'http-status', 'http.status'],
    ['a 202 to a request', reply(202, ''), 'http-status', 'http.status'],
    ['a 401 without credentials', reply(401, ''), 'auth', 'auth.unauthorized'],
  ])('classifies %s', async (_, handler, failureClass, code) => {
    server.handle(handler);
    expectFailure(
      await transport({ maxBodyBytes: 4096 }).request(requestFrame(1), recordingContext()),
      failureClass,
      code,
    );
  });

  it('never follows a redirect', async () => {
    server.handle((req, res) => {
      if (req.url.startsWith('/elsewhere'))
        return reply(200, '{"jsonrpc":"2.0","id":1,"result":{}}', { 'content-type': 'application/json' })(
          req,
          res,
        );
      res.writeHead(307, { location: '/elsewhere' });
      res.end();
    });
    const detail = expectFailure(
      await transport().request(requestFrame(1), recordingContext()),
      'http-status',
      'http.redirect',
    );
    expect(detail).toContain('307');
    expect(server.requests.map((r) => r.url)).toEqual(['/ahp/intercept?tenant=a']);
  });

  it('reports a refused connection and a reset socket as connection failures', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const refused = transport({ url: `http://127.0.0.1:${closedPort}/ahp` });
    expectFailure(
      await refused.request(requestFrame(1), recordingContext()),
      'connection',
      'http.connection-refused',
    );
    server.handle((_req, _res, raw) => raw.socket.destroy());
    expectFailure(
      await transport().request(requestFrame(1), recordingContext()),
      'connection',
      'http.connection-reset',
    );
  });

  it('reports a body cut off mid-way as a reset', async () => {
    server.handle((_req, res, raw) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"jsonrpc":', () => raw.socket.destroy());
    });
    expectFailure(
      await transport().request(requestFrame(1), recordingContext()),
      'connection',
      'http.connection-reset',
    );
  });

  it('ends a hanging request at once on abort and drops the socket', async () => {
    server.handle(() => undefined);
    const t = transport();
    const ctx = recordingContext();
    const pending = t.request(requestFrame(1), ctx);
    await server.requestsSeen(1);
    const t0 = performance.now();
    ctx.controller.abort(new DOMException('deadline', 'TimeoutError'));
    expectFailure(await pending, 'deadline-exceeded', 'deadline');
    expect(performance.now() - t0).toBeLessThan(TEST_BACKEND_MARGINS.promptMs);
    await server.socketsClosed();
  });

  it('refuses plain http to a non-loopback host at construction', () => {
    expect(() => createHttpTransport({ url: 'http://192.0.2.10/ahp', clock: systemClock })).toThrow(
      HttpTransportConfigError,
    );
  });

  it('close() destroys its sockets, fails later calls locally and leaves no handle open', async () => {
    const before = await handleCounts();
    const t = transport();
    await t.request(requestFrame(1), recordingContext());
    expect(server.openSockets()).toBe(1);
    await t.close();
    await server.socketsClosed();
    expectFailure(await t.request(requestFrame(2), recordingContext()), 'connection', 'http.closed');
    expect(server.requests).toHaveLength(1);
    expect(await handleCounts()).toEqual(before);
    await t.close();
  });

  it('settles a pending request when closed', async () => {
    server.handle(() => undefined);
    const t = transport();
    const pending = t.request(requestFrame(1), recordingContext());
    await server.requestsSeen(1);
    await t.close();
    expectFailure(await pending, 'connection', 'http.closed');
  });
});

describe('HTTP transport: notifications', () => {
  it.each([202, 204])('accepts %i with no body', async (status) => {
    server.handle(reply(status, ''));
    expect(await transport().notify(notificationFrame(), recordingContext())).toEqual({ ok: true });
  });

  it.each([
    ['a 202 with a body', reply(202, '{"ok":true}'), 'malformed', 'http.notify-body'],
    ['a 200', reply(200, '{}', { 'content-type': 'application/json' }), 'http-status', 'http.status'],
    ['a 503', reply(503, ''), 'http-status', 'http.status'],
    ['a 302', reply(302, '', { location: '/x' }), 'http-status', 'http.redirect'],
  ])('fails on %s', async (_, handler, failureClass, code) => {
    server.handle(handler);
    expectFailure(await transport().notify(notificationFrame(), recordingContext()), failureClass, code);
  });

  it('reports the body sent with a refusing status as a frame in, and still fails on the status', async () => {
    const body = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"no"}}';
    server.handle(reply(400, body, { 'content-type': 'application/json' }));
    const ctx = recordingContext();
    expectFailure(await transport().notify(notificationFrame(), ctx), 'http-status', 'http.status');
    expect(ctx.frames.filter((f) => f.direction === 'in').map((f) => f.text)).toEqual([body]);
  });
});

describe('HTTP transport: bearer auth', () => {
  it('sends the token in exactly one Authorization header and nowhere else', async () => {
    const t = transport({ auth: bearerFromEnv('AHP_TOKEN', { AHP_TOKEN: 'tok-123' }) });
    await t.request(requestFrame(1), recordingContext());
    const seen = server.requests[0];
    expect(
      seen?.rawHeaders.filter((h, i) => i % 2 === 0 && h.toLowerCase() === 'authorization'),
    ).toHaveLength(1);
    expect(seen?.headers.authorization).toBe('Bearer tok-123');
    expect(seen?.url).not.toContain('tok-123');
    expect(seen?.body).not.toContain('tok-123');
  });

  it('sends nothing when the env var is missing', async () => {
    const t = transport({ auth: bearerFromEnv('AHP_TOKEN', {}) });
    expectFailure(await t.request(requestFrame(1), recordingContext()), 'auth', 'auth.env-missing');
    expectFailure(await t.notify(notificationFrame(), recordingContext()), 'auth', 'auth.env-missing');
    expect(server.requests).toEqual([]);
  });

  it('gives up on a 401 with a token that cannot be refreshed', async () => {
    server.handle(reply(401, ''));
    const t = transport({ auth: bearerFromEnv('T', { T: 'old' }) });
    expectFailure(await t.request(requestFrame(1), recordingContext()), 'auth', 'auth.unauthorized');
    expect(server.requests).toHaveLength(1);
  });

  it('refreshes once after a 401 and resends the same frame with the new token', async () => {
    server.handle((req, res) =>
      req.headers.authorization === 'Bearer fresh'
        ? reply(200, `{"jsonrpc":"2.0","id":1,"result":{}}`, { 'content-type': 'application/json' })(req, res)
        : reply(401, '')(req, res),
    );
    const calls: boolean[] = [];
    const provider: TokenProvider = {
      getToken: ({ refresh }) => (calls.push(refresh), Promise.resolve(refresh ? 'fresh' : 'stale')),
    };
    const t = transport({ auth: bearerFromProvider(provider, 'test') });
    expect(await t.request(requestFrame(1), recordingContext())).toMatchObject({ ok: true });
    expect(calls).toEqual([false, true]);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer stale', 'Bearer fresh']);
    expect(server.requests[1]?.body).toBe(server.requests[0]?.body);
  });

  it('refreshes only once: a second 401 is an auth failure', async () => {
    server.handle(reply(401, ''));
    const calls: boolean[] = [];
    const provider: TokenProvider = {
      getToken: ({ refresh }) => (calls.push(refresh), Promise.resolve('t')),
    };
    const t = transport({ auth: bearerFromProvider(provider, 'test') });
    expectFailure(await t.request(requestFrame(1), recordingContext()), 'auth', 'auth.unauthorized');
    expect(calls).toEqual([false, true]);
    expect(server.requests).toHaveLength(2);
  });

  it('reports a failed refresh as auth.refresh-failed and sends nothing more', async () => {
    server.handle(reply(401, ''));
    const provider: TokenProvider = {
      getToken: ({ refresh }) => (refresh ? Promise.reject(new Error('no')) : Promise.resolve('t')),
    };
    const t = transport({ auth: bearerFromProvider(provider, 'test') });
    expectFailure(await t.request(requestFrame(1), recordingContext()), 'auth', 'auth.refresh-failed');
    expect(server.requests).toHaveLength(1);
  });

  it('acquires the token inside the deadline: an abort during acquisition answers at once and sends nothing', async () => {
    let asked!: () => void;
    const providerAsked = new Promise<void>((r) => (asked = r));
    const provider: TokenProvider = { getToken: () => (asked(), new Promise<string>(() => undefined)) };
    const t = transport({ auth: bearerFromProvider(provider, 'test') });
    const ctx = recordingContext();
    const pending = t.request(requestFrame(1), ctx);
    await providerAsked;
    ctx.controller.abort();
    expectFailure(await pending, 'deadline-exceeded', 'deadline');
    expect(server.requests).toEqual([]);
  });

  it('sends nothing when the deadline passed while the provider was answering', async () => {
    const ctx = recordingContext();
    const provider: TokenProvider = {
      getToken: async () => {
        ctx.controller.abort();
        return 'late-token';
      },
    };
    const t = transport({ auth: bearerFromProvider(provider, 'test') });
    expectFailure(await t.request(requestFrame(1), ctx), 'deadline-exceeded', 'deadline');
    expect(ctx.frames).toEqual([]);
    expect(server.requests).toEqual([]);
  });
});
