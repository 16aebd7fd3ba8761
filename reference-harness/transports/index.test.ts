import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../protocol/clock.js';
import { startTestServer, type TestServer } from '../test-backends/http-test-server.js';
import {
  TEST_BACKEND_MARGINS,
  STDIO_BACKEND,
  recordingContext,
  requestFrame,
} from '../test-backends/helpers.js';
import type { BackendTransport } from '../transport.js';
import {
  TransportConfigError,
  childEnvironment,
  createTransportForBackend,
  type TransportDeps,
} from './index.js';

const open: BackendTransport[] = [];
let server: TestServer | undefined;
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
  await server?.close();
  server = undefined;
});

const deps = (env: Record<string, string | undefined> = {}): TransportDeps => ({
  clock: systemClock,
  env,
  killGraceMs: TEST_BACKEND_MARGINS.killGraceMs,
});

function build(...args: Parameters<typeof createTransportForBackend>) {
  const t = createTransportForBackend(...args);
  open.push(t);
  return t;
}

describe('createTransportForBackend', () => {
  it('builds each kind from its registration entry', () => {
    const stdio = { type: 'stdio' as const, command: process.execPath, args: [STDIO_BACKEND] };
    expect(build({ transport: { ...stdio, lifecycle: 'persistent' } }, deps()).kind).toBe('stdio-persistent');
    expect(build({ transport: { ...stdio, lifecycle: 'per_event' } }, deps()).kind).toBe('stdio-per_event');
    expect(build({ transport: { type: 'http', url: 'https://policy.example.com/ahp' } }, deps()).kind).toBe(
      'http',
    );
  });

  it('passes only the allowlisted environment to a spawned backend, never a token variable', async () => {
    const env = { PATH: '/usr/bin:/bin', HOME: '/tmp', AHP_TOKEN: 'secret', UNRELATED: 'x', LANG: undefined };
    expect(childEnvironment(env)).toEqual({ PATH: '/usr/bin:/bin', HOME: '/tmp' });
    const t = build(
      {
        transport: {
          type: 'stdio',
          command: process.execPath,
          args: [STDIO_BACKEND, 'env'],
          lifecycle: 'per_event',
        },
      },
      deps(env),
    );
    expect(await t.request(requestFrame(1), recordingContext())).toMatchObject({
      ok: true,
      message: { result: { env: ['HOME', 'PATH'] } },
    });
  });

  it('wires bearer tokenEnv and tokenRef into the HTTP transport', async () => {
    server = await startTestServer();
    const fromEnv = build(
      {
        transport: { type: 'http', url: server.url() },
        authentication: { type: 'bearer', tokenEnv: 'AHP_TOKEN' },
      },
      deps({ AHP_TOKEN: 'from-env' }),
    );
    await fromEnv.request(requestFrame(1), recordingContext());
    const fromRef = build(
      {
        transport: { type: 'http', url: server.url() },
        authentication: { type: 'bearer', tokenRef: 'ref:a' },
      },
      { ...deps(), tokenProviders: { 'ref:a': { getToken: () => Promise.resolve('from-ref') } } },
    );
    await fromRef.request(requestFrame(2), recordingContext());
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer from-env',
      'Bearer from-ref',
    ]);
  });

  it.each([
    [{ transport: { type: 'http' as const, url: 'http://example.com/ahp' } }, 'http.insecure-url'],
    [
      {
        transport: { type: 'stdio' as const, command: 'x', args: [], lifecycle: 'persistent' as const },
        authentication: { type: 'bearer' as const, tokenEnv: 'T' },
      },
      'auth.stdio',
    ],
    [
      {
        transport: { type: 'http' as const, url: 'https://a.example/ahp' },
        authentication: {
          type: 'oauth' as const,
          issuer: 'https://issuer.example',
          resource: 'https://a.example',
          clientId: 'c',
          flow: 'client_credentials' as const,
        },
      },
      'auth.unsupported',
    ],
  ])('refuses an entry it cannot honour with a typed error (%#)', (entry, code) => {
    let caught: unknown;
    try {
      build(entry, deps());
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TransportConfigError);
    expect((caught as TransportConfigError).code).toBe(code);
  });
});
