import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DriverClient } from './client.js';
import { DriverCallError } from './errors.js';
import { startDriver } from './start.js';
import { writeInlineBackend, type InlineBackend } from './test-drivers/inline-backend.js';
import { DRIVER_TEST_MARGINS } from './test-drivers/margins.js';
import { processAlive } from '../../protocol/process-alive.js';

// The reference harness's driver as a real process, exactly as `ahp-conformance harness` runs it.
const REFERENCE_DRIVER = fileURLToPath(new URL('../../bin/ahp-reference-driver.mjs', import.meta.url));
const COMMAND = [process.execPath, REFERENCE_DRIVER];
const INIT = { protocolVersion: 'draft', suiteVersion: '0.1.0' };
const TIMEOUTS = { initializeMs: DRIVER_TEST_MARGINS.tsxBootMs };
const call = (input: Record<string, string | boolean>, id = 'call_1') => ({
  event: { session: { id: 'sess_1' }, call: { id }, tool: { name: 'Bash', input } },
});

let backend: InlineBackend;
let client: DriverClient | undefined;
beforeAll(() => {
  backend = writeInlineBackend();
});
afterAll(() => backend.remove());
afterEach(async () => {
  await client?.dispose();
  client = undefined;
});

async function started(): Promise<DriverClient> {
  const driver = await startDriver(COMMAND, INIT, { timeouts: TIMEOUTS, env: { PATH: process.env.PATH } });
  client = driver.client;
  return driver.client;
}

describe('the reference driver (bin) through the client', () => {
  it('round-trips initialize, configure, invoke and close', async () => {
    const driver = await startDriver(COMMAND, INIT, { timeouts: TIMEOUTS, env: { PATH: process.env.PATH } });
    client = driver.client;
    expect(driver.info).toMatchObject({
      implementation: { name: 'ahp-conformance-reference-harness' },
      protocolVersions: ['draft'],
      bindings: ['stdio', 'http'],
      features: { retries: true, budget: true, cancel: true, tokenProvider: false },
    });
    expect(await client.configure({ registration: backend.registration() })).toEqual({ accepted: true });
    const allowed = await client.invoke(call({ command: 'ls' }));
    expect(allowed).toMatchObject({
      decision: 'continue',
      synthetic: false,
      interrupted: false,
      audit: [{ backendId: 'com.example.inline', outcome: 'no-effect' }],
    });
    expect(backend.received().at(-1)).toMatchObject({ method: 'hooks/intercept', id: allowed.eventId });
    const denied = await client.invoke(
      call({ mode: 'deny', reason: 'blocked by the inline policy' }, 'call_2'),
    );
    expect(denied).toMatchObject({
      decision: 'deny',
      reason: 'blocked by the inline policy',
      synthetic: false,
    });
    await expect(client.close()).resolves.toBeUndefined();
  });

  it('reports a refused registration as {accepted: false, issues}', async () => {
    const c = await started();
    const registration = backend.registration() as {
      hooks: Array<{ subscriptions: Array<Record<string, unknown>> }>;
    };
    delete registration.hooks[0]?.subscriptions[0]?.timeoutMs;
    const result = await c.configure({ registration });
    expect(result.accepted).toBe(false);
    expect(result.accepted === false && result.issues.map((i) => i.path)).toContain(
      '$.hooks[0].subscriptions[0].timeoutMs',
    );
  });

  it('invoke after close fails locally with an error and nothing reaches the backend', async () => {
    const c = await started();
    await c.configure({ registration: backend.registration() });
    await c.invoke(call({ command: 'ls' }));
    await c.close();
    const before = backend.received().length;
    const error = await c.invoke(call({ command: 'ls' }, 'call_after_close')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DriverCallError);
    expect((error as DriverCallError).data).toMatchObject({ code: 'harness-closed' });
    expect(backend.received()).toHaveLength(before);
  });

  it('dispose ends the driver with SIGTERM; the driver reaps its backend first', async () => {
    const c = await started();
    await c.configure({ registration: backend.registration({ lifecycle: 'persistent' }) });
    await c.invoke(call({ command: 'ls' }));
    const driverPid = c.pid as number;
    const backendPid = backend.pids().at(-1) as number;
    expect(!processAlive(backendPid)).toBe(false);
    await c.dispose();
    expect(!processAlive(driverPid)).toBe(true);
    // A clean exit (not SIGKILL) after SIGTERM: the driver closed its harness, reaping the backend.
    expect(c.exit).toEqual({ exitCode: 0 });
    expect(!processAlive(backendPid)).toBe(true);
  });
});
