/**
 * The library API as the README shows it: HTTP mock, control server, registrations, recordings,
 * waits, scenario replacement through the control API, resets and validation.
 */
import { describe, expect, it } from 'vitest';
import { interceptRequest } from './engine-test-frames.js';
import {
  BUILTIN_SCENARIOS,
  controlClient,
  createMock,
  DeliveryTimeout,
  InvalidScenarioError,
  startHttpMock,
  startMockControl,
  STDIO_MAIN_PATH,
  type Scenario,
} from './index.js';
import { rawRequest } from './shells/test-support/raw-http.js';

const body = (eventId: string) => JSON.stringify(interceptRequest({ eventId }));

describe('library API', () => {
  it('startHttpMock: fail the first 2, then answer; waitForDelivery and recordings by event id', async () => {
    const mock = await startHttpMock({ scenario: BUILTIN_SCENARIOS['fail-first-2-then-respond']!.scenario });
    const statuses: string[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await rawRequest(mock.url, { body: body('e') })).body.toString());
    const third = await mock.waitForDelivery((r) => r.attempt === 3, { timeoutMs: 5000 });
    expect(third.eventId).toBe('e');
    expect(mock.recordings({ eventId: 'e', type: 'inbound' })).toHaveLength(3);
    expect(statuses.map((s) => Object.keys(JSON.parse(s) as object))).toEqual([
      ['jsonrpc', 'id', 'error'],
      ['jsonrpc', 'id', 'error'],
      ['jsonrpc', 'id', 'result'],
    ]);
    await mock.close();
    await mock.close();
  });

  it('the HTTP mock control API replaces the scenario, filters recordings and resets', async () => {
    const mock = await startHttpMock({ scenario: { rules: [] } });
    const control = controlClient(mock.controlUrl as string);
    await control.call('PUT', '/scenario', { rules: [{ behaviour: { kind: 'deny' } }] });
    const res = await rawRequest(mock.url, { body: body('a') });
    expect(JSON.parse(res.body.toString()).result.effects[0].type).toBe('deny');
    const doc = (await control.call('GET', '/recordings?eventId=a&type=outbound')) as { entries: unknown[] };
    expect(doc.entries).toHaveLength(3);
    await expect(
      control.call('PUT', '/scenario', { rules: [{ behaviour: { kind: 'nope' } }] }),
    ).rejects.toThrow(/400: Scenario sent to PUT \/scenario is invalid at \$\.rules\[0\]\.behaviour\.kind/);
    // A shell composes "$controlUrl/recordings" from the announced ".../": "//recordings" is the path.
    expect(mock.controlUrl).toMatch(/\/$/);
    const composed = await fetch(`${mock.controlUrl as string}/recordings?eventId=a&type=outbound`);
    expect(composed.status).toBe(200);
    expect(((await composed.json()) as { entries: unknown[] }).entries).toHaveLength(3);
    await control.call('POST', '/reset');
    expect(mock.recordings()).toEqual([]);
    await expect(control.call('GET', '/nowhere')).rejects.toThrow(/404/);
    control.close();
    await mock.close();
  });

  it('registrationFor makes complete registration documents with explicit policies', async () => {
    const mock = await startHttpMock({ scenario: { rules: [] }, control: false });
    expect(mock.controlUrl).toBeUndefined();
    expect(mock.registrationFor({ failurePolicy: 'fail-open', bearerTokenEnv: 'MOCK_TOKEN' })).toEqual({
      protocolVersion: 'draft',
      hooks: [
        {
          id: 'dev.ahp-conformance.mock',
          transport: { type: 'http', url: mock.url },
          authentication: { type: 'bearer', tokenEnv: 'MOCK_TOKEN' },
          subscriptions: [
            {
              events: ['tool.before'],
              mode: 'intercept',
              timeoutMs: 1000,
              failurePolicy: 'fail-open',
              content: { default: 'metadata' },
            },
          ],
        },
      ],
    });
    await mock.close();

    const control = await startMockControl({ scenario: { rules: [] } });
    const command = control.stdioCommand({ lifecycle: 'per_event' });
    // By default the entry is the bundled JS of stdio-main.ts (esbuild is installed with tsx).
    expect(command).toEqual({
      command: process.execPath,
      args: [
        expect.stringMatching(/ahp-mock-stdio-[0-9a-f]{16}[/\\]stdio-main\.mjs$/),
        '--control-url',
        control.url,
      ],
      lifecycle: 'per_event',
    });
    const doc = control.registrationFor({ lifecycle: 'per_event', mode: 'observe' }) as {
      hooks: Array<Record<string, unknown>>;
    };
    expect(doc.hooks[0]?.transport).toEqual({
      type: 'stdio',
      command: command.command,
      args: command.args,
      lifecycle: 'per_event',
    });
    expect(doc.hooks[0]?.subscriptions).toEqual([
      { events: ['tool.before'], mode: 'observe', content: { default: 'metadata' } },
    ]);
    await control.close();

    const viaTsx = await startMockControl({ scenario: { rules: [] }, stdioEntry: 'tsx' });
    expect(viaTsx.stdioCommand().args).toEqual([
      '--import',
      expect.stringMatching(/^file:\/\/.*\/tsx\/dist\/loader\.mjs$/),
      STDIO_MAIN_PATH,
      '--control-url',
      viaTsx.url,
    ]);
    await viaTsx.close();
  });

  it('rejects an invalid scenario with the parser sentence, and waitForDelivery times out with a count', async () => {
    const bad = { rules: [{ behaviour: { kind: 'delay', ms: -1, then: { kind: 'respond' } } }] } as Scenario;
    expect(() => createMock({ scenario: bad })).toThrow(InvalidScenarioError);
    await expect(startHttpMock({ scenario: bad })).rejects.toThrow(
      /passed to the mock backend library is invalid at \$\.rules\[0\]\.behaviour\.ms/,
    );
    const core = createMock({ scenario: { rules: [] } });
    await expect(core.waitForDelivery(() => true, { timeoutMs: 20 })).rejects.toBeInstanceOf(DeliveryTimeout);
  });
});
