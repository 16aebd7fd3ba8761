import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DriverClient } from './client.js';
import {
  expectCloseRefusesLaterCalls,
  expectCrashDeniedSynthetically,
} from './test-drivers/example-driver-checks.js';
import { writeInlineBackend, type InlineBackend } from './test-drivers/inline-backend.js';

// The example driver that docs/driver-protocol.md shows third-party authors: it must really work.
const MINIMAL_DRIVER = fileURLToPath(new URL('../../docs/examples/minimal-driver.mjs', import.meta.url));
const INIT = { protocolVersion: 'draft', suiteVersion: '0.1.0' };
const call = (input: Record<string, string | boolean>) => ({
  event: { session: { id: 'sess_1' }, call: { id: 'call_1' }, tool: { name: 'Bash', input } },
});

let backend: InlineBackend;
let client: DriverClient;
beforeAll(() => {
  backend = writeInlineBackend();
});
afterAll(() => backend.remove());
afterEach(async () => {
  await client.dispose();
});

describe('docs/examples/minimal-driver.mjs', () => {
  it('speaks v1: the client validates every reply of a full connection', async () => {
    client = new DriverClient([process.execPath, MINIMAL_DRIVER]);
    const info = await client.initialize(INIT);
    expect(info.bindings).toEqual(['stdio']);
    expect(await client.configure({ registration: backend.registration() })).toEqual({ accepted: true });
    const allowed = await client.invoke(call({ command: 'ls' }));
    expect(allowed).toMatchObject({
      decision: 'continue',
      synthetic: false,
      audit: [{ outcome: 'no-effect' }],
    });
    const denied = await client.invoke(call({ mode: 'deny', reason: 'not today' }));
    expect(denied).toMatchObject({ decision: 'deny', reason: 'not today', synthetic: false });
    await expectCrashDeniedSynthetically(client);
    await expectCloseRefusesLaterCalls(client, backend);
  });

  it('refuses a registration without a failure policy, naming the field', async () => {
    client = new DriverClient([process.execPath, MINIMAL_DRIVER]);
    await client.initialize(INIT);
    const registration = backend.registration() as {
      hooks: Array<{ subscriptions: Array<Record<string, unknown>> }>;
    };
    delete registration.hooks[0]?.subscriptions[0]?.failurePolicy;
    const result = await client.configure({ registration });
    expect(result).toEqual({
      accepted: false,
      issues: [
        {
          path: '$.hooks[0].subscriptions[0].failurePolicy',
          message: 'must be "fail-open" or "fail-closed" (there is no default)',
        },
      ],
    });
  });

  it('refuses an observe subscription that carries a failure policy or a deadline', async () => {
    client = new DriverClient([process.execPath, MINIMAL_DRIVER]);
    await client.initialize(INIT);
    const registration = backend.registration() as {
      hooks: Array<{ subscriptions: Array<Record<string, unknown>> }>;
    };
    const observe = { events: ['tool.before'], mode: 'observe', failurePolicy: 'fail-open', timeoutMs: 100 };
    registration.hooks[0]?.subscriptions.push(observe);
    const result = await client.configure({ registration });
    expect(result).toEqual({
      accepted: false,
      issues: ['failurePolicy', 'timeoutMs'].map((field) => ({
        path: `$.hooks[0].subscriptions[1].${field}`,
        message: 'an observe subscription must not carry it',
      })),
    });
  });

  it('ends a call pending at close as interrupted, never continue', async () => {
    client = new DriverClient([process.execPath, MINIMAL_DRIVER]);
    await client.initialize(INIT);
    const registration = backend.registration({ failurePolicy: 'fail-open', timeoutMs: 30_000 });
    expect(await client.configure({ registration })).toEqual({ accepted: true });
    const before = backend.received().length;
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
  });
});
