import { describe, expect, it } from 'vitest';
import { BUILTIN_SCENARIOS, builtinNames, LATE_REPLY_MS } from './builtins.js';
import { initialState, start } from './engine.js';
import {
  frameOf,
  interceptRequest,
  observeNotification,
  runFrames,
  written,
  writtenText,
} from './engine-test-frames.js';
import type { Action, Scenario, Transport } from './model.js';
import { parseScenarioValue } from './scenario.js';
import { violationRecords } from './recording.js';

const REQ = interceptRequest();
const RESULT = (effects: string) => `{"protocolVersion":"draft","effects":${effects}}`;
const REPLY = (effects = '[]', id = '"evt_1"') => `{"jsonrpc":"2.0","id":${id},"result":${RESULT(effects)}}`;
const ERROR = (code: number, message: string, data = '') =>
  `{"jsonrpc":"2.0","id":"evt_1","error":{"code":${code},"message":"${message}"${data}}}`;

/** The one-frame output of a built-in on a transport (stdio text has its newline stripped). */
interface Out {
  transport: Transport;
  actions: Action[];
  text: string;
  types: string[];
  status: number | undefined;
  headers: Record<string, string> | undefined;
}

function run(scenario: Scenario, transport: Transport, frames = [frameOf(REQ, transport)]): Out[] {
  return runFrames(scenario, frames).map((r) => {
    const head = r.actions.find((a) => a.type === 'head');
    const text = writtenText(r.actions);
    return {
      transport,
      actions: r.actions,
      text: transport === 'stdio' ? text.replace(/\n$/, '') : text,
      types: r.actions.map((a) => a.type),
      status: head?.type === 'head' ? head.status : undefined,
      headers: head?.type === 'head' ? head.headers : undefined,
    };
  });
}
const textIs = (expected: string) => (o: Out) => expect(o.text).toBe(expected);

/** What each built-in is documented to do, checked on every transport it lists. */
const DOCUMENTED: Record<string, (o: Out, scenario: Scenario) => void> = {
  'respond-empty': textIs(REPLY()),
  deny: textIs(REPLY('[{"type":"deny","reason":"Blocked by the mock backend."}]')),
  'deny-dangerous-command': (o, s) => {
    expect(o.text).toBe(REPLY());
    const [hit] = run(s, o.transport, [
      frameOf(interceptRequest({ input: { command: 'rm -rf /' } }), o.transport),
    ]);
    expect(hit?.text).toBe(REPLY('[{"type":"deny","reason":"Destructive command."}]'));
  },
  'effects-unadvertised': textIs(REPLY('[{"type":"ask"}]')),
  'effects-unknown': textIs(REPLY('[{"type":"teleport"}]')),
  'effects-malformed': textIs(REPLY('[{"type":"deny"}]')),
  'effects-not-an-array': textIs(REPLY('{"type":"deny","reason":"x"}')),
  'effects-conflicting-return-deny': textIs(
    REPLY(
      '[{"type":"return","value":{"action":"accept"}},{"type":"deny","reason":"Conflicts with the return."}]',
    ),
  ),
  'effects-conflicting-continue': textIs(REPLY('[{"type":"flow","operation":"continue"}]')),
  'effects-conflicting-legacy': textIs(
    REPLY('[{"type":"deny","reason":"First."},{"type":"deny","reason":"Second."}]'),
  ),
  'delay-then-respond': (o) => {
    expect(o.text).toBe(REPLY());
    expect(o.actions.every((a) => a.afterMs === 200)).toBe(true);
  },
  'late-reply': (o) => {
    expect(o.text).toBe(REPLY());
    expect(o.actions.every((a) => a.afterMs === LATE_REPLY_MS)).toBe(true);
  },
  hang: (o) => expect(o.types).toEqual(['hang']),
  'no-reply': (o) => {
    expect(o.text).toBe('');
    expect(o.status).toBe(o.transport === 'stdio' ? undefined : 202);
  },
  'mismatched-id-string': textIs(REPLY('[]', '"not-the-request-id"')),
  'mismatched-id-null': textIs(REPLY('[]', 'null')),
  'mismatched-id-number': textIs(REPLY('[]', '1')),
  'malformed-utf8': (o) => {
    expect(Buffer.from(written(o.actions)).includes(Buffer.from([0xe2, 0x82, 0x28]))).toBe(true);
    expect(o.types.filter((t) => t === 'write')).toHaveLength(1);
  },
  'malformed-utf8-split': (o) => {
    const writes = o.actions.filter((a) => a.type === 'write');
    expect(writes.map((a) => a.afterMs)).toEqual([0, 5]);
    expect(Buffer.from(written(o.actions)).includes(Buffer.from([0xe2, 0x82, 0x28]))).toBe(true);
  },
  'malformed-json': (o) => expect(() => JSON.parse(o.text)).toThrow(),
  'not-jsonrpc-no-version': textIs(`{"id":"evt_1","result":${RESULT('[]')}}`),
  'not-jsonrpc-result-and-error': (o) =>
    expect(Object.keys(JSON.parse(o.text))).toEqual(['jsonrpc', 'id', 'result', 'error']),
  'not-jsonrpc-batch': textIs(`[${REPLY()}]`),
  'not-jsonrpc-wrong-version': textIs(`{"jsonrpc":"1.0","id":"evt_1","result":${RESULT('[]')}}`),
  'not-jsonrpc-no-id': textIs(`{"jsonrpc":"2.0","result":${RESULT('[]')}}`),
  'rpc-error-unsupported-version': textIs(
    ERROR(-32001, 'Unsupported protocol version', ',"data":{"supported":["draft"]}'),
  ),
  'rpc-error-unsupported-event': textIs(ERROR(-32002, 'Unsupported event')),
  'rpc-error-unavailable': textIs(ERROR(-32003, 'Backend unavailable')),
  'rpc-error-internal': textIs(ERROR(-32004, 'Backend internal error')),
  'rpc-error-method-not-found': textIs(ERROR(-32601, 'Method not found')),
  'wrong-protocol-version': textIs(
    '{"jsonrpc":"2.0","id":"evt_1","result":{"protocolVersion":"0.0-mock","effects":[]}}',
  ),
  'missing-protocol-version': textIs('{"jsonrpc":"2.0","id":"evt_1","result":{"effects":[]}}'),
  'missing-effects': textIs('{"jsonrpc":"2.0","id":"evt_1","result":{"protocolVersion":"draft"}}'),
  'raw-bytes': (o) => expect(Buffer.from(written(o.actions))).toEqual(Buffer.from([0x00, 0xff, 0x0a])),
  'slow-body': (o) => {
    expect(o.text).toBe(REPLY());
    const offsets = o.actions.filter((a) => a.type === 'write').map((a) => a.afterMs);
    expect(offsets.length).toBeGreaterThan(3);
    offsets.forEach((ms, i) => expect(ms).toBe(i * 100));
  },
  'fail-first-2-then-respond': (o, s) => {
    const texts = run(
      s,
      o.transport,
      [1, 2, 3].map(() => frameOf(REQ, o.transport)),
    ).map((x) => x.text);
    expect(texts).toEqual([
      ERROR(-32003, 'Backend unavailable'),
      ERROR(-32003, 'Backend unavailable'),
      REPLY(),
    ]);
  },
  'flaky-unavailable': (o, s) => {
    const frames = Array.from({ length: 30 }, (_, i) =>
      frameOf(interceptRequest({ eventId: `e${i}` }), o.transport),
    );
    const first = run(s, o.transport, frames).map((x) => x.text.includes('-32003'));
    expect(run(s, o.transport, frames).map((x) => x.text.includes('-32003'))).toEqual(first);
    expect(new Set(first)).toEqual(new Set([true, false]));
  },
  'answer-notification': (o, s) => {
    const [n] = run(s, o.transport, [frameOf(observeNotification(), o.transport)]);
    expect(n?.text).toBe(REPLY('[]', 'null'));
  },
  'stdio-banner': (o, s) => {
    expect(o.text).toBe(REPLY());
    const started = start(s, initialState(s), {
      transport: 'stdio',
      connectionId: '1',
      at: { monotonic: 0, wall: 0 },
    });
    expect(writtenText(started.actions)).toBe('mock-backend ready\n');
  },
  'stdio-pretty': (o) => {
    expect(o.text.split('\n').length).toBeGreaterThan(3);
    expect(JSON.parse(o.text)).toEqual(JSON.parse(REPLY()));
  },
  'stdio-two-replies': textIs(`${REPLY()}\n${REPLY()}`),
  'stdio-exit-before-reply': (o) => expect(o.actions).toEqual([{ type: 'exit', afterMs: 0, code: 3 }]),
  'stdio-exit-0-no-reply': (o) => expect(o.actions).toEqual([{ type: 'exit', afterMs: 0, code: 0 }]),
  'stdio-exit-after-reply': (o) => {
    expect(o.text).toBe(REPLY());
    expect(o.actions.at(-1)).toEqual({ type: 'exit', afterMs: 0, code: 1 });
  },
  'stdio-die-by-signal': (o) =>
    expect(o.actions).toEqual([{ type: 'signal', afterMs: 0, signal: 'SIGKILL' }]),
  'stdio-close-stdout': (o) => expect(o.actions).toEqual([{ type: 'reset', afterMs: 0 }]),
  'stdio-ignore-sigterm': (o, s) => {
    expect(o.types).toEqual(['hang']);
    expect(s.process?.ignoreSigterm).toBe(true);
  },
  'stdio-refuse-to-start': (_o, s) => {
    const started = start(s, initialState(s), {
      transport: 'stdio',
      connectionId: '1',
      at: { monotonic: 0, wall: 0 },
    });
    expect(started.actions.at(-1)).toEqual({ type: 'exit', afterMs: 0, code: 1 });
  },
  'http-500': (o) => {
    expect([o.status, o.text]).toEqual([500, 'internal error']);
  },
  'http-503-no-body': (o) => expect([o.status, o.text, o.types]).toEqual([503, '', ['head', 'end']]),
  'http-wrong-content-type': (o) =>
    expect([o.status, o.headers?.['content-type'], o.text]).toEqual([200, 'text/plain', REPLY()]),
  'http-redirect': (o) =>
    expect([o.status, o.headers?.location]).toEqual([307, 'http://127.0.0.1:9/elsewhere']),
  'http-unauthorized': (o) =>
    expect([o.status, o.headers?.['www-authenticate']]).toEqual([401, 'Bearer realm="ahp-mock"']),
  'http-bearer-required': (o, s) => {
    expect(o.status).toBe(401);
    const meta = {
      method: 'POST',
      path: '/',
      headers: { 'content-type': 'application/json', authorization: 'Bearer mock-token' },
    };
    const [ok] = run(s, o.transport, [frameOf(REQ, o.transport, { http: meta })]);
    expect([ok?.status, ok?.text]).toEqual([200, REPLY()]);
  },
  'http-reset': (o) => expect(o.actions).toEqual([{ type: 'reset', afterMs: 0 }]),
  'http-reset-mid-response': (o) => {
    expect(o.types).toEqual(['head', 'write', 'reset']);
    expect(o.text).toBe(REPLY().slice(0, 20));
  },
  'http-accept-no-answer': (o) => expect(o.types).toEqual(['hang']),
};

describe('built-in scenarios', () => {
  it('every built-in has a documented check here, and every check a built-in', () => {
    expect(builtinNames()).toEqual(Object.keys(DOCUMENTED).sort());
  });

  for (const name of builtinNames()) {
    const builtin = BUILTIN_SCENARIOS[name];
    it(`${name}: parses and does what its description says on ${builtin?.transports.join(', ')}`, () => {
      if (!builtin) throw new Error(`no built-in ${name}`);
      expect(builtin.description).toMatch(/\.$/);
      const parsed = parseScenarioValue(builtin.scenario, `built-in "${name}"`);
      expect(parsed).toEqual({ ok: true, scenario: builtin.scenario });
      for (const transport of builtin.transports) {
        const [out] = run(builtin.scenario, transport);
        if (!out) throw new Error('no step');
        const result = runFrames(builtin.scenario, [frameOf(REQ, transport)])[0];
        expect(violationRecords(result?.records ?? [])).toEqual(
          name === 'http-bearer-required' ? [expect.objectContaining({ code: 'auth-missing' })] : [],
        );
        DOCUMENTED[name]?.(out, builtin.scenario);
      }
    });
  }
});
