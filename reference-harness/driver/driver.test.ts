import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE_FEATURES } from './driver-methods.js';
import {
  startInProcess,
  waitFor,
  writeTestBackend,
  type InProcessDriver,
  type TestBackend,
} from './test-support.js';
import { processAlive } from '../../protocol/process-alive.js';

const INIT = { protocolVersion: 'draft', suiteVersion: '0.1.0' };
const event = (input: Record<string, string | boolean>, extra: Record<string, string> = {}) => ({
  event: { ...extra, session: { id: 'sess_1' }, call: { id: 'call_1' }, tool: { name: 'Bash', input } },
});

/** Real time is unavoidable with a backend process; these bounds are far above the typical cost. */
const REFERENCE_DRIVER_TEST_MARGINS = {
  /** A cancellation or budget this short still lets the request reach the hanging backend's pipe. */
  interruptAfterMs: 300,
  /** An interrupted call must settle long before the subscription's own deadline. */
  longDeadlineMs: 20_000,
} as const;

let backend: TestBackend;
let driver: InProcessDriver;
beforeAll(() => {
  backend = writeTestBackend();
});
afterAll(() => backend.remove());
afterEach(async () => {
  await driver.end();
});

async function configured(options: Parameters<TestBackend['registration']>[0] = {}, retries?: number) {
  driver = startInProcess();
  await driver.request('initialize', INIT);
  const answer = await driver.request('configure', {
    registration: backend.registration(options),
    ...(retries === undefined ? {} : { retries }),
  });
  expect(answer.result).toEqual({ accepted: true });
  return driver;
}

describe('reference driver: initialize and ordering', () => {
  it('announces the reference harness, the draft revision, both bindings and its features', async () => {
    driver = startInProcess();
    const answer = await driver.request('initialize', INIT);
    expect(answer.result).toMatchObject({
      implementation: { name: 'ahp-conformance-reference-harness' },
      protocolVersions: ['draft'],
      bindings: ['stdio', 'http'],
      features: REFERENCE_FEATURES,
    });
    expect(typeof (answer.result?.implementation as { version: unknown }).version).toBe('string');
  });

  it('refuses calls before initialize and invoke before configure, with stable codes', async () => {
    driver = startInProcess();
    expect((await driver.request('configure', { registration: {} })).error).toMatchObject({
      code: -32010,
      data: { code: 'not-initialized' },
    });
    await driver.request('initialize', INIT);
    expect((await driver.request('invoke', event({})))?.error).toMatchObject({
      code: -32011,
      data: { code: 'not-configured' },
    });
    expect((await driver.request('nope')).error?.code).toBe(-32601);
  });

  it('answers a line that is not JSON, and a batch, with a null id', async () => {
    driver = startInProcess();
    const parse = driver.nextOrphan();
    driver.raw('this is not json\n');
    expect(await parse).toMatchObject({ id: null, error: { code: -32700 } });
    const batch = driver.nextOrphan();
    driver.raw('[]\n');
    expect(await batch).toMatchObject({ id: null, error: { code: -32600 } });
  });
});

describe('reference driver: configure', () => {
  it('reports a refused registration with every violation as {path, message}', async () => {
    driver = startInProcess();
    await driver.request('initialize', INIT);
    const answer = await driver.request('configure', {
      registration: backend.registration({ failurePolicy: undefined }),
    });
    expect(answer.result?.accepted).toBe(false);
    expect(answer.result?.issues).toContainEqual(
      expect.objectContaining({ path: '$.hooks[0].subscriptions[0].failurePolicy' }),
    );
    for (const issue of answer.result?.issues as Array<Record<string, unknown>>) {
      expect(Object.keys(issue).sort()).toEqual(['message', 'path']);
    }
  });

  it('refuses malformed params naming the field', async () => {
    driver = startInProcess();
    await driver.request('initialize', INIT);
    const answer = await driver.request('configure', { registration: {}, retries: 1.5 });
    expect(answer.error).toMatchObject({
      code: -32602,
      data: { code: 'invalid-params', field: 'params.retries' },
    });
  });

  it('a second configure closes the first harness and reaps its backend', async () => {
    await configured();
    await driver.request('invoke', event({ command: 'ls' }));
    const [first] = backend.pids().slice(-1);
    expect(await driver.request('configure', { registration: backend.registration() })).toMatchObject({
      result: { accepted: true },
    });
    expect(!processAlive(first as number)).toBe(true);
  });
});

describe('reference driver: invoke', () => {
  it('maps a no-effect and an explicit deny, with the event id the backend saw', async () => {
    await configured();
    const allowed = await driver.request('invoke', event({ command: 'ls' }, { id: 'evt_driver_1' }));
    expect(allowed.result).toMatchObject({
      decision: 'continue',
      synthetic: false,
      interrupted: false,
      eventId: 'evt_driver_1',
      audit: [{ backendId: 'com.example.inline', outcome: 'no-effect', mode: 'intercept', attempts: 1 }],
    });
    expect(allowed.result).not.toHaveProperty('reason');
    expect(backend.frames().at(-1)).toMatchObject({ id: 'evt_driver_1', method: 'hooks/intercept' });
    const denied = await driver.request('invoke', event({ deny: 'force push blocked' }));
    expect(denied.result).toMatchObject({
      decision: 'deny',
      reason: 'force push blocked',
      synthetic: false,
      audit: [{ outcome: 'deny', synthetic: false, policy: 'fail-closed' }],
    });
    expect(backend.frames().at(-1)?.id).toBe(denied.result?.eventId);
  });

  it('fail-closed: a crashing backend gives a synthetic deny with a generic reason', async () => {
    await configured({ lifecycle: 'per_event' });
    const answer = await driver.request('invoke', event({ crash: true }));
    expect(answer.result).toMatchObject({
      decision: 'deny',
      synthetic: true,
      interrupted: false,
      audit: [
        { outcome: 'operational-failure', failureClass: 'process', policy: 'fail-closed', synthetic: true },
      ],
    });
    expect(answer.result?.reason).not.toMatch(/exit|code 3|node|backend\.mjs/);
  });

  it('fail-open: the same failure continues unchanged', async () => {
    await configured({ lifecycle: 'per_event', failurePolicy: 'fail-open' });
    const answer = await driver.request('invoke', event({ crash: true }));
    expect(answer.result).toMatchObject({
      decision: 'continue',
      synthetic: false,
      audit: [{ outcome: 'operational-failure', failureClass: 'process', policy: 'fail-open' }],
    });
  });

  it('configure.retries reaches the harness: a failing backend gets the same frame again', async () => {
    await configured({ lifecycle: 'per_event' }, 2);
    const before = backend.frames().length;
    const answer = await driver.request('invoke', event({ crash: true }));
    expect(answer.result?.audit).toMatchObject([{ attempts: 3, failureClass: 'process' }]);
    const sent = backend.frames().slice(before);
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((f) => JSON.stringify(f))).size).toBe(1);
  });

  it('cancelAfterMs interrupts a hanging call: deny, interrupted, ending cancelled', async () => {
    await configured({ timeoutMs: REFERENCE_DRIVER_TEST_MARGINS.longDeadlineMs, failurePolicy: 'fail-open' });
    const started = performance.now();
    const answer = await driver.request('invoke', {
      ...event({ hang: true }),
      cancelAfterMs: REFERENCE_DRIVER_TEST_MARGINS.interruptAfterMs,
    });
    expect(performance.now() - started).toBeLessThan(REFERENCE_DRIVER_TEST_MARGINS.longDeadlineMs / 2);
    expect(answer.result).toMatchObject({
      decision: 'deny',
      interrupted: true,
      ending: 'cancelled',
      audit: [{ outcome: 'interrupted' }],
    });
  });

  it('budgetMs expires a hanging call: deny, interrupted, ending budget-expired', async () => {
    await configured({ timeoutMs: REFERENCE_DRIVER_TEST_MARGINS.longDeadlineMs, failurePolicy: 'fail-open' });
    const answer = await driver.request('invoke', {
      ...event({ hang: true }),
      budgetMs: REFERENCE_DRIVER_TEST_MARGINS.interruptAfterMs,
    });
    expect(answer.result).toMatchObject({
      decision: 'deny',
      interrupted: true,
      ending: 'budget-expired',
      audit: [{ outcome: 'budget-expired' }],
    });
  });

  it('v1.1: reports executed and the final permission; a host deny or ask survives an empty list', async () => {
    await configured();
    const ran = await driver.request('invoke', event({ command: 'ls' }));
    expect(ran.result).toMatchObject({ eventType: 'tool.before', executed: true, permission: 'allow' });
    const denied = await driver.request('invoke', event({ deny: 'no' }));
    expect(denied.result).toMatchObject({ decision: 'deny', executed: false, permission: 'deny' });
    for (const host of ['deny', 'ask'] as const) {
      const held = await driver.request('invoke', { ...event({ command: 'ls' }), hostPermission: host });
      expect(held.result).toMatchObject({ decision: 'continue', executed: false, permission: host });
    }
  });

  it('v1.1: raises another event type from its payload; no subscription matches it, so no decision step', async () => {
    await configured();
    const before = backend.frames().length;
    const answer = await driver.request('invoke', {
      event: {
        type: 'turn.start',
        id: 'evt_turn',
        session: { id: 's' },
        turn: { id: 't' },
        trigger: 'user',
        items: [],
      },
    });
    expect(answer.result).toMatchObject({
      decision: 'continue',
      eventId: 'evt_turn',
      eventType: 'turn.start',
      executed: true,
      audit: [],
    });
    expect(backend.frames().length).toBe(before);
  });

  it('refuses bad params and an event the harness cannot raise', async () => {
    await configured();
    const negative = await driver.request('invoke', { ...event({}), budgetMs: -1 });
    expect(negative.error).toMatchObject({ code: -32602, data: { field: 'params.budgetMs' } });
    // An observation-only event cannot be raised through invoke; a raisable one must still be valid.
    const wrongType = await driver.request('invoke', { event: { type: 'session.end' } });
    expect(wrongType.error).toMatchObject({ code: -32602, data: { field: 'params.event.type' } });
    const emptyAfter = await driver.request('invoke', { event: { type: 'tool.after' } });
    expect(emptyAfter.error).toMatchObject({ code: -32602, data: { code: 'invoke-input-invalid' } });
    const badPermission = await driver.request('invoke', { ...event({}), hostPermission: 'maybe' });
    expect(badPermission.error).toMatchObject({ code: -32602, data: { field: 'params.hostPermission' } });
    const noCall = await driver.request('invoke', { event: { tool: { name: 'Bash', input: {} } } });
    expect(noCall.error).toMatchObject({ code: -32602, data: { code: 'invoke-input-invalid' } });
    expect((noCall.error?.data?.violations as unknown[]).length).toBeGreaterThan(0);
  });
});

describe('reference driver: v1.3', () => {
  it("advertises a call's own capabilities on the wire, with the control state, and reports the outcomes", async () => {
    await configured();
    const capabilities = { effects: ['deny', 'return', 'message'] };
    const answer = await driver.request('invoke', { ...event({ path: 'a' }), capabilities });
    expect(answer.result).toMatchObject({
      decision: 'continue',
      executed: true,
      messages: [],
      input: { path: 'a' },
    });
    expect(answer.result).not.toHaveProperty('result');
    const sent = backend.frames().at(-1)?.params as Record<string, unknown>;
    expect(sent.capabilities).toEqual(capabilities);
    expect(sent.state).toEqual({ permission: 'none', candidate: null });
  });

  it('answers -32602 naming the member for capabilities its harness cannot enforce', async () => {
    await configured();
    const before = backend.frames().length;
    const answer = await driver.request('invoke', {
      ...event({}),
      capabilities: { effects: ['deny', 'com.example.redact'] },
    });
    expect(answer.error).toMatchObject({ code: -32602, data: { code: 'invoke-input-invalid' } });
    expect(answer.error?.message).toContain('$.capabilities.effects[1]');
    expect(backend.frames().length).toBe(before);
  });
});

describe('reference driver: close and shutdown', () => {
  it('close reaps the backend; a later invoke fails locally and reaches no backend', async () => {
    await configured();
    await driver.request('invoke', event({ command: 'ls' }));
    const pid = backend.pids().at(-1) as number;
    expect(await driver.request('close')).toMatchObject({ result: {} });
    expect(!processAlive(pid)).toBe(true);
    const before = backend.received().length;
    const after = await driver.request('invoke', event({ command: 'ls' }));
    expect(after.error).toMatchObject({ code: -32012, data: { code: 'harness-closed' } });
    expect(backend.received()).toHaveLength(before);
    expect(await driver.request('close')).toMatchObject({ result: {} });
  });

  it('close ends an invoke in flight: interrupted, ending closed, never continue', async () => {
    await configured({ timeoutMs: REFERENCE_DRIVER_TEST_MARGINS.longDeadlineMs, failurePolicy: 'fail-open' });
    const before = backend.frames().length;
    const inflight = driver.request('invoke', event({ hang: true }));
    // Wait for the request to reach the backend, so the close really interrupts a delivery.
    await waitFor(() => backend.frames().length > before);
    const closed = await driver.request('close');
    expect(closed.result).toEqual({});
    expect((await inflight).result).toMatchObject({ decision: 'deny', interrupted: true, ending: 'closed' });
  });

  it('the end of stdin closes the harness and reaps its backend before the run resolves', async () => {
    await configured();
    await driver.request('invoke', event({ command: 'ls' }));
    const pid = backend.pids().at(-1) as number;
    expect(await driver.end()).toBe(0);
    expect(!processAlive(pid)).toBe(true);
  });

  it('an aborted signal ends the run the same way', async () => {
    const controller = new AbortController();
    driver = startInProcess({ signal: controller.signal });
    await driver.request('initialize', INIT);
    controller.abort();
    expect(await driver.done).toBe(0);
  });
});
