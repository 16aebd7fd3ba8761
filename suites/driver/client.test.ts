import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../protocol/clock.js';
import type { DriverClientOptions } from './client-options.js';
import { DriverClient } from './client.js';
import {
  DriverCallError,
  DriverProtocolError,
  DriverTimeoutError,
  DriverUnavailableError,
} from './errors.js';
import { startDriver } from './start.js';
import { FAKE_DRIVER, DRIVER_TEST_MARGINS } from './test-drivers/margins.js';
import { processAlive } from '../../protocol/process-alive.js';

const INIT = { protocolVersion: 'draft', suiteVersion: '0.1.0' };
const EVENT = { call: { id: 'call_1' }, tool: { name: 'Bash', input: { command: 'ls' } } };

const clients: DriverClient[] = [];
function fake(mode: string, options: DriverClientOptions = {}): DriverClient {
  const client = new DriverClient([process.execPath, FAKE_DRIVER, mode], options);
  clients.push(client);
  return client;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
});

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('DriverClient against a well-behaved driver', () => {
  it('round-trips the four methods with typed, validated results', async () => {
    const client = fake('good');
    const info = await client.initialize(INIT);
    expect(info.implementation.name).toBe('fake-driver');
    expect(await client.configure({ registration: { protocolVersion: 'draft', hooks: [] } })).toEqual({
      accepted: true,
    });
    expect(await client.invoke({ event: EVENT })).toEqual({
      decision: 'continue',
      synthetic: false,
      interrupted: false,
      audit: [],
    });
    await expect(client.close()).resolves.toBeUndefined();
  });

  it('surfaces a JSON-RPC error answer as DriverCallError and stays usable', async () => {
    const client = fake('error-configure');
    await client.initialize(INIT);
    const error = (await rejection(client.configure({ registration: {}, retries: -1 }))) as DriverCallError;
    expect(error).toBeInstanceOf(DriverCallError);
    expect(error.method).toBe('configure');
    expect(error.rpcCode).toBe(-32602);
    expect(error.data).toEqual({ field: 'retries' });
    expect((await client.invoke({ event: EVENT })).decision).toBe('continue');
    await expect(client.close()).resolves.toBeUndefined();
  });
});

describe('DriverClient against a driver that cannot be exercised', () => {
  it('a banner on stdout is DriverUnavailableError (stdout-not-json) naming the line', async () => {
    const error = await rejection(fake('banner').initialize(INIT));
    expect(error).toBeInstanceOf(DriverUnavailableError);
    expect((error as DriverUnavailableError).reason).toBe('stdout-not-json');
    expect(error.message).toContain('Fake driver 1.0 starting up');
  });

  it('a driver that exits at once is DriverUnavailableError (exited) with its exit code and stderr', async () => {
    const error = (await rejection(fake('exit').initialize(INIT))) as DriverUnavailableError;
    expect(error).toBeInstanceOf(DriverUnavailableError);
    expect(error.reason).toBe('exited');
    expect(error.exitCode).toBe(2);
    expect(error.stderr).toContain('refuses to run');
  });

  it('a command that does not exist is DriverUnavailableError (spawn-failed)', async () => {
    const client = new DriverClient(['/nonexistent/ahp-driver-for-tests']);
    clients.push(client);
    const error = (await rejection(client.initialize(INIT))) as DriverUnavailableError;
    expect(error.reason).toBe('spawn-failed');
    expect(error.message).toMatch(/could not be started \(ENOENT\)/);
    expect(client.pid).toBeUndefined();
  });

  it('a driver that never answers initialize fails within the scaled timeout', async () => {
    const started = performance.now();
    const client = fake('silent', {
      timeouts: { initializeMs: DRIVER_TEST_MARGINS.shortInitializeMs / 2 },
      timeoutScale: 2,
    });
    const error = (await rejection(client.initialize(INIT))) as DriverUnavailableError;
    const elapsed = performance.now() - started;
    expect(error.reason).toBe('initialize-timeout');
    expect(error.message).toContain(`within ${DRIVER_TEST_MARGINS.shortInitializeMs} ms`);
    expect(elapsed).toBeGreaterThanOrEqual(DRIVER_TEST_MARGINS.shortInitializeMs - 5);
    expect(elapsed).toBeLessThan(DRIVER_TEST_MARGINS.shortInitializeMs + DRIVER_TEST_MARGINS.spawnMs);
  });

  it('an initialize refused with a JSON-RPC error is DriverUnavailableError (initialize-refused)', async () => {
    const error = (await rejection(fake('error-init').initialize(INIT))) as DriverUnavailableError;
    expect(error.reason).toBe('initialize-refused');
  });

  it('startDriver refuses a driver without the requested revision and leaves no process', async () => {
    const error = (await rejection(
      startDriver([process.execPath, FAKE_DRIVER, 'old-version'], INIT),
    )) as DriverUnavailableError;
    expect(error.reason).toBe('unsupported-version');
    expect(error.message).toContain('"0.1"');
  });

  it('startDriver hands back an initialized client', async () => {
    const { client, info } = await startDriver([process.execPath, FAKE_DRIVER, 'good'], INIT);
    clients.push(client);
    expect(info.protocolVersions).toEqual(['draft']);
    expect((await client.invoke({ event: EVENT })).decision).toBe('continue');
  });
});

describe('DriverClient against malformed replies', () => {
  it('a malformed initialize result is DriverProtocolError naming the field', async () => {
    const error = (await rejection(fake('malformed-init').initialize(INIT))) as DriverProtocolError;
    expect(error).toBeInstanceOf(DriverProtocolError);
    expect(error.field).toBe('$.result.implementation.name');
    expect(error.message).toContain('$.result.implementation.name must be a string');
  });

  it('a malformed audit entry is DriverProtocolError naming it; the connection goes on', async () => {
    const client = fake('malformed-invoke');
    await client.initialize(INIT);
    const error = (await rejection(client.invoke({ event: EVENT }))) as DriverProtocolError;
    expect(error.field).toBe('$.result.audit[0].outcome');
    await expect(client.close()).resolves.toBeUndefined();
  });

  it('a reply to an id never sent is DriverProtocolError on $.id', async () => {
    const error = (await rejection(fake('unknown-id').initialize(INIT))) as DriverProtocolError;
    expect(error).toBeInstanceOf(DriverProtocolError);
    expect(error.field).toBe('$.id');
  });

  it('a reply without an id is DriverProtocolError on $.id', async () => {
    const error = (await rejection(fake('bad-envelope').initialize(INIT))) as DriverProtocolError;
    expect(error.field).toBe('$.id');
    expect(error.method).toBe('initialize');
  });

  it('stdout noise after initialize makes the pending call and every later one unavailable', async () => {
    const client = fake('noise-later');
    await client.initialize(INIT);
    const error = (await rejection(client.invoke({ event: EVENT }))) as DriverUnavailableError;
    expect(error.reason).toBe('stdout-not-json');
    expect(await rejection(client.close())).toBe(error);
  });

  it('a driver dying during invoke is DriverUnavailableError naming the call', async () => {
    const client = fake('die-on-invoke');
    await client.initialize(INIT);
    const error = (await rejection(client.invoke({ event: EVENT }))) as DriverUnavailableError;
    expect(error.reason).toBe('exited');
    expect(error.exitCode).toBe(7);
    expect(error.message).toContain('"invoke"');
  });
});

describe('DriverClient timeouts and disposal', () => {
  it('an invoke past its timeout is DriverTimeoutError; its late reply is not taken for the next call', async () => {
    const clock = new ManualClock();
    const client = fake('good', { clock, timeoutScale: 3 });
    await client.initialize(INIT);
    const held = { ...EVENT, tool: { name: 'Bash', input: { hold: true } } };
    const outcome = rejection(client.invoke({ event: held }, { timeoutMs: 100 }));
    let settled = false;
    void outcome.then(() => (settled = true));
    await clock.advance(299);
    expect(settled).toBe(false);
    await clock.advance(1);
    const error = (await outcome) as DriverTimeoutError;
    expect(error).toBeInstanceOf(DriverTimeoutError);
    expect(error.timeoutMs).toBe(300);
    // The driver now answers the held call first, then this one: only the second is its answer.
    const next = await client.invoke({ event: EVENT });
    expect(next.reason).toBeUndefined();
    await expect(client.close()).resolves.toBeUndefined();
  });

  it('dispose escalates to SIGKILL for a driver that ignores SIGTERM, and is safe twice', async () => {
    const client = fake('ignore-term', { killGraceMs: DRIVER_TEST_MARGINS.killGraceMs });
    await client.initialize(INIT);
    const pid = client.pid as number;
    const started = performance.now();
    const first = client.dispose();
    expect(client.dispose()).toBe(first);
    await first;
    expect(performance.now() - started).toBeGreaterThanOrEqual(DRIVER_TEST_MARGINS.killGraceMs - 5);
    expect(!processAlive(pid)).toBe(true);
    expect(client.exited).toBe(true);
    const after = (await rejection(client.invoke({ event: EVENT }))) as DriverUnavailableError;
    expect(after.reason).toBe('disposed');
  });

  it('dispose fails a pending call at once', async () => {
    const client = fake('silent');
    const outcome = rejection(client.initialize(INIT));
    await client.dispose();
    const error = (await outcome) as DriverUnavailableError;
    expect(error.reason).toBe('disposed');
  });

  it('a driver that stops answering after initialize ends the connection (unresponsive) once the liveness request goes unanswered too', async () => {
    const client = fake('stall-after-init', { timeouts: { configureMs: 100, probeMs: 200 } });
    await client.initialize(INIT);
    const error = (await rejection(client.configure({ registration: {} }))) as DriverUnavailableError;
    expect(error).toBeInstanceOf(DriverUnavailableError);
    expect(error.reason).toBe('unresponsive');
    expect(error.message).toContain('"configure" within 100 ms');
    expect(client.ended).toBe(error);
    expect(await rejection(client.invoke({ event: EVENT }))).toBe(error);
  });

  it('a call the driver leaves unanswered while it answers the liveness request is its own timeout, up to three in a row', async () => {
    const client = fake('hang-configure', { timeouts: { configureMs: 50, probeMs: 2000 } });
    await client.initialize(INIT);
    for (let i = 0; i < 2; i++) {
      expect(await rejection(client.configure({ registration: {} }))).toBeInstanceOf(DriverTimeoutError);
    }
    expect(client.ended).toBeUndefined();
    const third = (await rejection(client.configure({ registration: {} }))) as DriverUnavailableError;
    expect(third.reason).toBe('unresponsive');
    expect(third.message).toContain('3 calls in a row');
  });

  it('an answered call resets the count of calls left unanswered in a row', async () => {
    const client = fake('hang-configure', { timeouts: { configureMs: 50, probeMs: 2000 } });
    await client.initialize(INIT);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 2; i++) {
        expect(await rejection(client.configure({ registration: {} }))).toBeInstanceOf(DriverTimeoutError);
      }
      await client.invoke({ event: EVENT });
    }
    expect(client.ended).toBeUndefined();
  });
});
