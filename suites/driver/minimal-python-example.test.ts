import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DriverClient } from './client.js';
import {
  expectCloseRefusesLaterCalls,
  expectCrashDeniedSynthetically,
} from './test-drivers/example-driver-checks.js';
import { writeInlineBackend, type InlineBackend } from './test-drivers/inline-backend.js';

// The Python example driver that docs/driver-protocol.md shows third-party authors: a harness
// built unlike the reference (threads, a shell per per_event backend, a new HTTP connection per
// request). It must really work; scripts/python-driver.e2e.ts runs the whole suite against it.
const PYTHON_DRIVER = fileURLToPath(new URL('../../docs/examples/minimal-driver.py', import.meta.url));
const PYTHON = 'python3';
const INIT = { protocolVersion: 'draft', suiteVersion: '0.1.0' };
const call = (input: Record<string, string | boolean | number>) => ({
  event: { session: { id: 'sess_1' }, call: { id: 'call_1' }, tool: { name: 'Bash', input } },
});
type Registration = {
  hooks: Array<{ transport: { args: string[] }; subscriptions: Array<Record<string, unknown>> }>;
};

let backend: InlineBackend;
let client: DriverClient;
beforeAll(() => {
  backend = writeInlineBackend();
});
afterAll(() => backend.remove());
afterEach(async () => {
  await client.dispose();
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function started(): Promise<DriverClient> {
  client = new DriverClient([PYTHON, PYTHON_DRIVER]);
  await client.initialize(INIT);
  return client;
}

describe('docs/examples/minimal-driver.py', () => {
  it('announces stdio (both lifecycles) and HTTP, and nothing it does not do', async () => {
    client = new DriverClient([PYTHON, PYTHON_DRIVER]);
    const info = await client.initialize(INIT);
    expect(info.bindings).toEqual(['stdio', 'http']);
    expect(info.features).toMatchObject({
      stdioPersistent: true,
      stdioPerEvent: true,
      http: true,
      close: true,
      retries: false,
      budget: false,
      cancel: false,
      observe: false,
    });
  });

  it('persistent stdio: one process for every call, replies matched by id, locally refused after close', async () => {
    await started();
    const pidsBefore = backend.pids().length;
    expect(await client.configure({ registration: backend.registration() })).toEqual({ accepted: true });
    const allowed = await client.invoke(call({ command: 'ls' }));
    expect(allowed).toMatchObject({
      decision: 'continue',
      synthetic: false,
      audit: [{ outcome: 'no-effect', attempts: 1, policy: 'fail-closed' }],
    });
    const denied = await client.invoke(call({ mode: 'deny', reason: 'not today' }));
    expect(denied).toMatchObject({ decision: 'deny', reason: 'not today', synthetic: false });
    expect(backend.pids().slice(pidsBefore)).toHaveLength(1);
    await expectCrashDeniedSynthetically(client);
    await expectCloseRefusesLaterCalls(client, backend);
  });

  it('per_event stdio: a shell starts each backend, and the quoted arguments reach it unexpanded', async () => {
    await started();
    const marker = join(backend.logFile, '..', 'expanded');
    const registration = backend.registration({ lifecycle: 'per_event' }) as Registration;
    // An argument a shell would run if the harness did not quote it; the backend ignores it.
    registration.hooks[0]?.transport.args.push(`note=$(touch ${marker}); touch ${marker}`);
    const pidsBefore = backend.pids().length;
    expect(await client.configure({ registration })).toEqual({ accepted: true });
    expect(await client.invoke(call({ command: 'ls' }))).toMatchObject({ decision: 'continue' });
    expect(await client.invoke(call({ mode: 'deny', reason: 'no' }))).toMatchObject({ decision: 'deny' });
    expect(backend.pids().length - pidsBefore).toBe(2);
    expect(existsSync(marker)).toBe(false);
  });

  it('per_event stdio: a command the shell cannot run is a launch failure that sent nothing', async () => {
    await started();
    const registration = backend.registration({ lifecycle: 'per_event' }) as {
      hooks: Array<{ transport: { command: string } }>;
    };
    const hook = registration.hooks[0];
    if (hook) hook.transport.command = join(backend.logFile, '..', 'no-such-backend');
    expect(await client.configure({ registration })).toEqual({ accepted: true });
    expect(await client.invoke(call({ command: 'ls' }))).toMatchObject({
      decision: 'deny',
      synthetic: true,
      audit: [{ outcome: 'operational-failure', failureClass: 'process', attempts: 0 }],
    });
  });

  it('close ends a pending call as interrupted, never continue, and reaps the backend', async () => {
    await started();
    const registration = backend.registration({
      lifecycle: 'per_event',
      failurePolicy: 'fail-open',
      timeoutMs: 30_000,
    });
    expect(await client.configure({ registration })).toEqual({ accepted: true });
    const before = backend.received().length;
    const pidsBefore = backend.pids().length;
    const pending = client.invoke(call({ mode: 'hang' }));
    await expect.poll(() => backend.received().length, { timeout: 10_000 }).toBeGreaterThan(before);
    await client.close();
    expect(await pending).toMatchObject({
      decision: 'deny',
      synthetic: true,
      interrupted: true,
      ending: 'closed',
      audit: [{ outcome: 'interrupted' }],
    });
    const hung = backend.pids().slice(pidsBefore);
    expect(hung).toHaveLength(1);
    await expect.poll(() => hung.filter(alive), { timeout: 2_000 }).toEqual([]);
  });

  describe('HTTP', () => {
    let server: Server;
    const connections: number[] = [];
    let delayMs = 0;
    beforeAll(async () => {
      server = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        request.on('end', () => {
          const { id } = JSON.parse(body) as { id: string };
          setTimeout(() => {
            response.writeHead(200, { 'content-type': 'application/json' });
            const effects = [{ type: 'deny', reason: 'late but in time' }];
            response.end(
              JSON.stringify({ jsonrpc: '2.0', id, result: { protocolVersion: 'draft', effects } }),
            );
          }, delayMs);
        });
      });
      server.on('connection', () => connections.push(Date.now()));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('a new connection per request; a reply inside timeoutMs is applied however late', async () => {
      await started();
      const { port } = server.address() as AddressInfo;
      const registration = {
        protocolVersion: 'draft',
        hooks: [
          {
            id: 'com.example.http',
            transport: { type: 'http', url: `http://127.0.0.1:${port}/ahp` },
            subscriptions: [
              {
                events: ['tool.*'],
                mode: 'intercept',
                timeoutMs: 10_000,
                failurePolicy: 'fail-open',
                content: { default: 'omit' },
              },
            ],
          },
        ],
      };
      expect(await client.configure({ registration })).toEqual({ accepted: true });
      delayMs = 0;
      await client.invoke(call({ command: 'ls' }));
      delayMs = 1_500;
      const late = await client.invoke(call({ command: 'ls' }));
      expect(late).toMatchObject({
        decision: 'deny',
        reason: 'late but in time',
        synthetic: false,
        audit: [{ outcome: 'deny', attempts: 1 }],
      });
      expect(connections).toHaveLength(2);
    });
  });

  it('refuses a registration without a failure policy, naming the field', async () => {
    await started();
    const registration = backend.registration() as Registration;
    delete registration.hooks[0]?.subscriptions[0]?.failurePolicy;
    expect(await client.configure({ registration })).toEqual({
      accepted: false,
      issues: [
        {
          path: '$.hooks[0].subscriptions[0].failurePolicy',
          message: 'must be "fail-open" or "fail-closed" (there is no default)',
        },
      ],
    });
  });
});
