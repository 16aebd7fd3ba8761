import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_SCENARIOS, startHttpMock, type HttpMock } from '../../mock-backend/index.js';
import type { DriverClient } from './client.js';
import { startDriver } from './start.js';
import { DRIVER_TEST_MARGINS } from './test-drivers/margins.js';

// The whole chain as the suites will use it: client -> reference driver (a real process) ->
// reference harness -> HTTP mock backend, with the driver's report checked against the wire.
const COMMAND = [
  process.execPath,
  fileURLToPath(new URL('../../bin/ahp-reference-driver.mjs', import.meta.url)),
];
const INIT = { protocolVersion: 'draft', suiteVersion: '0.1.0' };
/** A deadline far above loopback HTTP latency on a loaded machine, yet short enough to wait out. */
const DEADLINE_MS = 1_000;

function scenario(name: string) {
  const builtin = BUILTIN_SCENARIOS[name];
  if (!builtin) throw new Error(`no built-in scenario ${name}`);
  return builtin.scenario;
}

let mock: HttpMock;
let client: DriverClient;
beforeAll(async () => {
  mock = await startHttpMock({ scenario: scenario('deny-dangerous-command'), control: false });
  ({ client } = await startDriver(COMMAND, INIT, {
    timeouts: { initializeMs: DRIVER_TEST_MARGINS.tsxBootMs },
  }));
});
afterAll(async () => {
  await client?.dispose();
  await mock?.close();
});

const call = (id: string, command: string) => ({
  event: { session: { id: 'sess_e2e' }, call: { id }, tool: { name: 'Bash', input: { command } } },
});

describe('client -> reference driver -> reference harness -> HTTP mock', () => {
  it('an explicit deny and a no-effect answer, each matched with the delivery the mock recorded', async () => {
    const registration = mock.registrationFor({ failurePolicy: 'fail-closed', timeoutMs: DEADLINE_MS });
    expect(await client.configure({ registration })).toEqual({ accepted: true });
    const denied = await client.invoke(call('call_rm', 'rm -rf /'));
    expect(denied).toMatchObject({ decision: 'deny', reason: 'Destructive command.', synthetic: false });
    const allowed = await client.invoke(call('call_ls', 'ls'));
    expect(allowed).toMatchObject({ decision: 'continue', audit: [{ outcome: 'no-effect' }] });
    const seen = mock
      .deliveries()
      .map((d) => ({ eventId: d.eventId, toolName: d.toolName, attempt: d.attempt }));
    expect(seen).toEqual([
      { eventId: denied.eventId, toolName: 'Bash', attempt: 1 },
      { eventId: allowed.eventId, toolName: 'Bash', attempt: 1 },
    ]);
  });

  it('a hanging backend under fail-closed: a synthetic deny classed deadline-exceeded', async () => {
    mock.setScenario(scenario('hang'));
    mock.reset();
    const registration = mock.registrationFor({ failurePolicy: 'fail-closed', timeoutMs: DEADLINE_MS });
    expect(await client.configure({ registration })).toEqual({ accepted: true });
    const result = await client.invoke(call('call_hang', 'ls'));
    expect(result).toMatchObject({
      decision: 'deny',
      synthetic: true,
      interrupted: false,
      audit: [
        {
          outcome: 'operational-failure',
          failureClass: 'deadline-exceeded',
          policy: 'fail-closed',
          synthetic: true,
        },
      ],
    });
    expect(result.reason).not.toContain('127.0.0.1');
    expect(mock.deliveries().map((d) => d.eventId)).toEqual([result.eventId]);
    await client.close();
  });
});
