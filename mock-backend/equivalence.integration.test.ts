/**
 * Property: one generated scenario and one generated frame sequence give the same recorded
 * behaviour over a persistent stdio process and over a real HTTP server, modulo transport,
 * connection id, arrival times, the HTTP head and stdio's frame newline.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonValue } from '../protocol/json.js';
import { interceptRequest, observeNotification } from './engine-test-frames.js';
import {
  decodeBytes,
  startHttpMock,
  startMockControl,
  type Behaviour,
  type HttpMock,
  type MockControl,
  type RecordEntry,
  type Rule,
  type Scenario,
} from './index.js';
import { rawRequest } from './shells/test-support/raw-http.js';
import {
  MOCK_PROCESS_MARGINS,
  SPAWN_TEST_TIMEOUT_MS,
  spawnMock,
  type MockProcess,
} from './shells/test-support/stdio-process.js';

/** Runs per property check; each run is a few frames over both transports. */
const RUNS = 30;

const leaf: fc.Arbitrary<Behaviour> = fc.oneof(
  fc.constant<Behaviour>({ kind: 'respond' }),
  fc
    .constantFrom<JsonValue>([], [{ type: 'deny', reason: 'x' }], [{ type: 'teleport' }], { not: 'an array' })
    .map((effects): Behaviour => ({ kind: 'respond', effects })),
  fc.string({ maxLength: 6 }).map((reason): Behaviour => ({ kind: 'deny', reason })),
  fc
    .constantFrom(-32001, -32002, -32003, -32004, -32600)
    .map((code): Behaviour => ({ kind: 'rpc-error', code })),
  fc
    .constantFrom<string | number | null>('other', null, 7)
    .map((id): Behaviour => ({ kind: 'mismatched-id', id })),
  fc
    .constantFrom('no-jsonrpc', 'result-and-error', 'batch', 'wrong-jsonrpc', 'no-id' as const)
    .map((variant): Behaviour => ({ kind: 'not-jsonrpc', variant })),
  fc.constantFrom<Behaviour>(
    { kind: 'malformed-json' },
    { kind: 'malformed-utf8' },
    { kind: 'silent' },
    { kind: 'hang' },
  ),
);

const behaviour: fc.Arbitrary<Behaviour> = fc.oneof(
  leaf,
  fc
    .record({ ms: fc.integer({ min: 0, max: 15 }), then: leaf })
    .map(({ ms, then }): Behaviour => ({ kind: 'delay', ms, then })),
  fc.array(leaf, { minLength: 1, maxLength: 3 }).map((steps): Behaviour => ({ kind: 'sequence', steps })),
  fc
    .record({ p: fc.double({ min: 0, max: 1, noNaN: true }), behaviour: leaf, otherwise: leaf })
    .map((b): Behaviour => ({ kind: 'probability', ...b })),
);

const rule: fc.Arbitrary<Rule> = fc.record(
  {
    match: fc.record(
      {
        toolName: fc.constantFrom('Bash', 'Read'),
        attempt: fc.integer({ min: 1, max: 3 }),
        fields: fc.constant([{ path: 'tool.input.command', contains: 'rm' }]),
        identity: fc.constantFrom(['a'], ['b', 'call_1'], ['other']),
        message: fc.constantFrom('request' as const, 'any' as const),
      },
      { requiredKeys: [] },
    ),
    behaviour,
    times: fc.integer({ min: 1, max: 2 }),
  },
  { requiredKeys: ['behaviour'] },
);

const scenario: fc.Arbitrary<Scenario> = fc.record(
  { seed: fc.integer({ min: 0, max: 1000 }), rules: fc.array(rule, { maxLength: 3 }), unmatched: leaf },
  { requiredKeys: ['seed', 'rules'] },
);

/** Frame bodies without the stdio newline: requests (retries included), notifications, garbage. */
const frame: fc.Arbitrary<Uint8Array> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record({
        eventId: fc.constantFrom('a', 'b'),
        tool: fc.constantFrom('Bash', 'Read'),
        command: fc.constantFrom('ls', 'rm -rf /'),
      })
      .map((r) =>
        json(interceptRequest({ eventId: r.eventId, tool: r.tool, input: { command: r.command } })),
      ),
  },
  { weight: 1, arbitrary: fc.constantFrom('a', 'b').map((id) => json(observeNotification(id))) },
  // Garbage without LF or CR: stdio would split at an LF and strip a final CR, HTTP would not.
  {
    weight: 1,
    arbitrary: fc.uint8Array({ maxLength: 12 }).map((b) => b.filter((x) => x !== 0x0a && x !== 0x0d)),
  },
);

function json(value: JsonValue): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value));
}

/** The transport-neutral view of a recording. */
function neutral(entries: readonly RecordEntry[], transport: 'stdio' | 'http'): unknown[] {
  const byDelivery = new Map<number, { actions: string[]; body: Buffer }>();
  const out: unknown[] = [];
  for (const e of entries) {
    if (e.type === 'inbound') {
      const { transport: _t, connectionId: _c, at: _a, http: _h, ...rest } = e;
      out.push(rest);
    } else if (e.type === 'violation') {
      const { transport: _t, connectionId: _c, ...rest } = e;
      out.push(rest);
    } else if (e.action.type !== 'head') {
      const d = byDelivery.get(e.delivery) ?? { actions: [], body: Buffer.alloc(0) };
      d.actions.push(`${e.action.type}@${e.action.afterMs}`);
      if (e.action.type === 'write') d.body = Buffer.concat([d.body, decodeBytes(e.action.bytes)]);
      byDelivery.set(e.delivery, d);
    }
  }
  for (const [delivery, d] of byDelivery) {
    // stdio frames a reply with a newline; an HTTP body carries none.
    const body = transport === 'stdio' && d.body.at(-1) === 0x0a ? d.body.subarray(0, -1) : d.body;
    out.push({ delivery, actions: d.actions, body: body.toString('base64') });
  }
  return out;
}

describe(
  'one scenario, same recorded behaviour over stdio and HTTP',
  { timeout: SPAWN_TEST_TIMEOUT_MS },
  () => {
    let control: MockControl;
    let proc: MockProcess;
    let http: HttpMock;
    beforeAll(async () => {
      control = await startMockControl({ scenario: { rules: [] } });
      http = await startHttpMock({ scenario: { rules: [] }, control: false });
      proc = spawnMock(control.stdioCommand());
      proc.write(`${JSON.stringify(interceptRequest({ eventId: 'warm-up' }))}\n`);
      await control.waitForDelivery(() => true, { timeoutMs: MOCK_PROCESS_MARGINS.spawnMs });
    }, SPAWN_TEST_TIMEOUT_MS);
    afterAll(async () => {
      await proc.dispose();
      await Promise.all([control.close(), http.close()]);
    });

    it('holds for generated scenarios and frame sequences', async () => {
      await fc.assert(
        fc.asyncProperty(scenario, fc.array(frame, { minLength: 1, maxLength: 5 }), async (s, frames) => {
          control.setScenario(s);
          control.core.reset();
          http.setScenario(s);
          http.reset();
          const n = frames.length;

          proc.write(Buffer.concat(frames.flatMap((f) => [f, Buffer.from('\n')])));
          await control.waitForDelivery((r) => r.delivery === n, { timeoutMs: MOCK_PROCESS_MARGINS.replyMs });

          for (const [i, f] of frames.entries()) {
            // Replies may hang: wait for the mock to record each frame, never for its answer.
            void rawRequest(http.url, { body: f, resolveWhenComplete: true });
            await http.waitForDelivery((r) => r.delivery === i + 1, {
              timeoutMs: MOCK_PROCESS_MARGINS.replyMs,
            });
          }
          expect(neutral(http.recordings(), 'http')).toEqual(neutral(control.recordings(), 'stdio'));
        }),
        { numRuns: RUNS },
      );
    });
  },
);
