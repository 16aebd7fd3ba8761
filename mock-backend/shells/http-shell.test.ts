import { request as httpRequest, Agent } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_FRAME_BYTES } from '../../protocol/ndjson.js';
import { interceptRequest } from '../engine-test-frames.js';
import type { Action, Scenario } from '../model.js';
import { immediateBody } from './http-responder.js';
import { startHttpShell, type HttpShell } from './http-shell.js';
import { MockCore } from './mock-core.js';
import { rawRequest } from './test-support/raw-http.js';

const body = (eventId: string) => JSON.stringify(interceptRequest({ eventId }));
const bytes = (n: number, fill = 0) => new Uint8Array(n).fill(fill);
let shell: HttpShell | undefined;

async function start(scenario: Scenario) {
  const core = new MockCore(scenario);
  shell = await startHttpShell(core);
  return { core, url: shell.url };
}

afterEach(async () => {
  await shell?.close();
  shell = undefined;
});

describe('immediateBody', () => {
  it('is the whole body when head, writes and end are due together, else undefined', () => {
    const head: Action = { type: 'head', afterMs: 5, status: 200, headers: {} };
    expect(
      immediateBody([
        head,
        { type: 'write', afterMs: 5, bytes: bytes(3, 1) },
        { type: 'write', afterMs: 5, bytes: bytes(4, 2) },
        { type: 'end', afterMs: 5 },
      ]),
    ).toEqual(Buffer.from([1, 1, 1, 2, 2, 2, 2]));
    expect(immediateBody([head, { type: 'end', afterMs: 5 }])).toEqual(Buffer.alloc(0));
    expect(
      immediateBody([head, { type: 'write', afterMs: 9, bytes: bytes(3) }, { type: 'end', afterMs: 9 }]),
    ).toBeUndefined();
    expect(immediateBody([head, { type: 'hang', afterMs: 5 }])).toBeUndefined();
    expect(immediateBody([{ type: 'hang', afterMs: 0 }])).toBeUndefined();
  });
});

describe('HTTP shell', () => {
  it('listens on a loopback port of its own and answers one POST body per engine step', async () => {
    const { core, url } = await start({ rules: [] });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const res = await rawRequest(url, { body: body('a') });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['content-length']).toBe(String(res.body.length));
    expect(res.body.toString()).toBe(
      '{"jsonrpc":"2.0","id":"a","result":{"protocolVersion":"draft","effects":[]}}',
    );
    const [record] = core.deliveries();
    expect(record?.http).toMatchObject({
      method: 'POST',
      path: '/',
      headers: { 'content-type': 'application/json' },
    });
    expect(record?.bytes).toEqual({ text: body('a') });
  });

  it('records when it carried out each action: an immediate reply at once, a delayed one no earlier than planned', async () => {
    const { core, url } = await start({
      rules: [
        { match: { toolName: 'Slow' }, behaviour: { kind: 'delay', ms: 20, then: { kind: 'respond' } } },
      ],
    });
    const slow = JSON.stringify(interceptRequest({ eventId: 'slow', tool: 'Slow' }));
    for (const request of [body('now'), slow]) {
      await rawRequest(url, { body: request });
      // The shell runs in this process, on the same clock: the reply was in before this line.
      const received = performance.now();
      const [inbound, ...outbound] = core.recordings({ delivery: core.deliveries().length });
      const arrival = inbound?.type === 'inbound' ? inbound.at.monotonic : NaN;
      const planned = request === slow ? 20 : 0;
      expect(outbound.map((e) => (e.type === 'outbound' ? e.action.type : e.type))).toEqual([
        'head',
        'write',
        'end',
      ]);
      for (const e of outbound) {
        const at = e.type === 'outbound' ? (e.performedAt?.monotonic ?? NaN) : NaN;
        expect(at - arrival).toBeGreaterThanOrEqual(planned);
        expect(at).toBeLessThanOrEqual(received);
      }
    }
  });

  it('keeps a keep-alive connection usable across requests and names it once', async () => {
    const { core, url } = await start({ rules: [] });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = (eventId: string) =>
      new Promise<string>((resolve, reject) => {
        const req = httpRequest(
          url,
          { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
          (res) => {
            const parts: Buffer[] = [];
            res.on('data', (c: Buffer) => parts.push(c));
            res.on('end', () => resolve(Buffer.concat(parts).toString()));
          },
        );
        req.on('error', reject);
        req.end(body(eventId));
      });
    await post('a');
    await post('b');
    agent.destroy();
    expect(core.deliveries().map((r) => r.connectionId)).toEqual(['c1', 'c1']);
  });

  it('records bodies that are not JSON, answers them as unparseable and keeps serving', async () => {
    const { core, url } = await start({ rules: [] });
    const res = await rawRequest(url, { body: Buffer.from([0xff, 0xfe, 0x0a]) });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toMatchObject({ id: null, error: { code: -32700 } });
    expect(core.recordings({ type: 'violation' })).toHaveLength(1);
    const after = await rawRequest(url, { body: body('still-up') });
    expect(after.status).toBe(200);
  });

  it('records a body that arrives in several chunks with its exact bytes (a character split across two)', async () => {
    const { core, url } = await start({ rules: [] });
    const text = JSON.stringify(interceptRequest({ eventId: 'é-split' }));
    const whole = Buffer.from(text);
    const cut = whole.indexOf(0xc3) + 1; // inside the two bytes of 'é'
    const reply = new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        url,
        { method: 'POST', headers: { 'content-type': 'application/json' } },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => resolve(Buffer.concat(parts).toString()));
        },
      );
      req.on('error', reject);
      // Chunked and paused between writes, so the server reads the parts as separate chunks.
      req.write(whole.subarray(0, cut));
      setTimeout(() => {
        req.write(whole.subarray(cut, cut + 10));
        setTimeout(() => req.end(whole.subarray(cut + 10)), 20);
      }, 20);
    });
    expect(JSON.parse(await reply)).toMatchObject({ id: 'é-split', result: { effects: [] } });
    expect(core.deliveries()[0]?.bytes).toEqual({ text });
  });

  it('records a body past the size cap as frame-too-large, answers it as unparseable and keeps serving', async () => {
    const { core, url } = await start({ rules: [] });
    const res = await rawRequest(url, { body: Buffer.alloc(DEFAULT_MAX_FRAME_BYTES + 1, 0x20) });
    expect(JSON.parse(res.body.toString())).toMatchObject({ id: null, error: { code: -32700 } });
    const violations = core.recordings({ type: 'violation' });
    expect(violations.map((v) => v.type === 'violation' && v.code)).toEqual(['frame-too-large']);
    expect(core.deliveries()[0]?.bytes).toEqual({ text: '' });
    expect((await rawRequest(url, { body: body('still-up') })).status).toBe(200);
  });

  it('close() ends hanging exchanges and is safe to repeat', async () => {
    const { core, url } = await start({ rules: [{ behaviour: { kind: 'hang' } }] });
    const hanging = rawRequest(url, { body: body('h') });
    await core.waitForDelivery(() => true, { timeoutMs: 5000 });
    await shell?.close();
    await shell?.close();
    const res = await hanging;
    expect(res.raw.length).toBe(0);
  });
});
