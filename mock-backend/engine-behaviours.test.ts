import { describe, expect, it } from 'vitest';
import {
  frameOf,
  interceptRequest,
  observeNotification,
  once,
  only,
  readable,
  written,
} from './engine-test-frames.js';
import type { Behaviour, Transport } from './model.js';

const REQ = interceptRequest();
const EMPTY = '{"jsonrpc":"2.0","id":"evt_1","result":{"protocolVersion":"draft","effects":[]}}';
const JSON_HEAD = { type: 'head', afterMs: 0, status: 200, headers: { 'content-type': 'application/json' } };

function stdio(behaviour: Behaviour) {
  return readable(once(only(behaviour), frameOf(REQ)).actions);
}
function http(behaviour: Behaviour, transport: Transport = 'http') {
  return readable(once(only(behaviour), frameOf(REQ, transport)).actions);
}
/** A reply over stdio: one write of the text plus its newline, then end. */
function stdioReply(text: string, at = 0) {
  return [
    { type: 'write', afterMs: at, bytes: `${text}\n` },
    { type: 'end', afterMs: at },
  ];
}
function httpReply(text: string, at = 0) {
  return [
    { ...JSON_HEAD, afterMs: at },
    { type: 'write', afterMs: at, bytes: text },
    { type: 'end', afterMs: at },
  ];
}

describe('engine behaviours: replies', () => {
  it('respond: [] mirroring id and protocolVersion, framed per transport', () => {
    expect(stdio({ kind: 'respond' })).toEqual(stdioReply(EMPTY));
    expect(http({ kind: 'respond' })).toEqual(httpReply(EMPTY));
    expect(http({ kind: 'respond' }, 'msw')).toEqual(httpReply(EMPTY));
  });

  it('respond mirrors a numeric id and the request protocolVersion', () => {
    const req = interceptRequest({ id: 7, protocolVersion: '0.1' });
    const out = readable(once(only({ kind: 'respond' }), frameOf(req)).actions);
    expect(out[0]).toEqual({
      type: 'write',
      afterMs: 0,
      bytes: '{"jsonrpc":"2.0","id":7,"result":{"protocolVersion":"0.1","effects":[]}}\n',
    });
  });

  it('respond carries any effects as raw JSON: unadvertised, unknown, malformed, conflicting', () => {
    const effects = [
      { type: 'ask' },
      { type: 'teleport' },
      { type: 'deny' },
      { type: 'return', value: {} },
      { type: 'deny', reason: 'x' },
    ];
    expect(stdio({ kind: 'respond', effects })).toEqual(
      stdioReply(
        `{"jsonrpc":"2.0","id":"evt_1","result":{"protocolVersion":"draft","effects":${JSON.stringify(effects)}}}`,
      ),
    );
    expect(stdio({ kind: 'respond', effects: 'deny' })).toEqual(
      stdioReply('{"jsonrpc":"2.0","id":"evt_1","result":{"protocolVersion":"draft","effects":"deny"}}'),
    );
  });

  it('respond with a wrong protocolVersion, without protocolVersion, without effects, with extensions', () => {
    expect(stdio({ kind: 'respond', protocolVersion: '9.9' })).toEqual(
      stdioReply('{"jsonrpc":"2.0","id":"evt_1","result":{"protocolVersion":"9.9","effects":[]}}'),
    );
    expect(stdio({ kind: 'respond', omit: ['protocolVersion'] })).toEqual(
      stdioReply('{"jsonrpc":"2.0","id":"evt_1","result":{"effects":[]}}'),
    );
    expect(stdio({ kind: 'respond', omit: ['effects'] })).toEqual(
      stdioReply('{"jsonrpc":"2.0","id":"evt_1","result":{"protocolVersion":"draft"}}'),
    );
    expect(stdio({ kind: 'respond', extensions: { 'com.example/x': 1 } })).toEqual(
      stdioReply(
        '{"jsonrpc":"2.0","id":"evt_1","result":{"protocolVersion":"draft","effects":[],"extensions":{"com.example/x":1}}}',
      ),
    );
  });

  it('deny: one deny effect with the default or given reason and code', () => {
    expect(stdio({ kind: 'deny' })).toEqual(
      stdioReply(
        '{"jsonrpc":"2.0","id":"evt_1","result":{"protocolVersion":"draft","effects":[{"type":"deny","reason":"Denied by the mock backend scenario."}]}}',
      ),
    );
    expect(stdio({ kind: 'deny', reason: 'no', code: 'com.example.block' })).toEqual(
      stdioReply(
        '{"jsonrpc":"2.0","id":"evt_1","result":{"protocolVersion":"draft","effects":[{"type":"deny","reason":"no","code":"com.example.block"}]}}',
      ),
    );
  });

  it('rpc-error: any code, default messages, data', () => {
    expect(stdio({ kind: 'rpc-error', code: -32001, data: { supported: ['draft'] } })).toEqual(
      stdioReply(
        '{"jsonrpc":"2.0","id":"evt_1","error":{"code":-32001,"message":"Unsupported protocol version","data":{"supported":["draft"]}}}',
      ),
    );
    for (const [code, message] of [
      [-32002, 'Unsupported event'],
      [-32003, 'Backend unavailable'],
      [-32004, 'Backend internal error'],
      [12345, 'Error'],
    ] as const) {
      expect(stdio({ kind: 'rpc-error', code })).toEqual(
        stdioReply(`{"jsonrpc":"2.0","id":"evt_1","error":{"code":${code},"message":"${message}"}}`),
      );
    }
    expect(stdio({ kind: 'rpc-error', code: -32003, message: 'busy' })).toEqual(
      stdioReply('{"jsonrpc":"2.0","id":"evt_1","error":{"code":-32003,"message":"busy"}}'),
    );
  });

  it('mismatched-id: another string, null, a number', () => {
    for (const [id, json] of [
      ['evt_other', '"evt_other"'],
      [null, 'null'],
      [1, '1'],
    ] as const) {
      expect(stdio({ kind: 'mismatched-id', id })).toEqual(
        stdioReply(`{"jsonrpc":"2.0","id":${json},"result":{"protocolVersion":"draft","effects":[]}}`),
      );
    }
  });

  it('not-jsonrpc: every variant', () => {
    const result = '{"protocolVersion":"draft","effects":[]}';
    expect(stdio({ kind: 'not-jsonrpc', variant: 'no-jsonrpc' })).toEqual(
      stdioReply(`{"id":"evt_1","result":${result}}`),
    );
    expect(stdio({ kind: 'not-jsonrpc', variant: 'result-and-error' })).toEqual(
      stdioReply(
        `{"jsonrpc":"2.0","id":"evt_1","result":${result},"error":{"code":-32603,"message":"Internal error"}}`,
      ),
    );
    expect(stdio({ kind: 'not-jsonrpc', variant: 'batch' })).toEqual(stdioReply(`[${EMPTY}]`));
    expect(stdio({ kind: 'not-jsonrpc', variant: 'wrong-jsonrpc' })).toEqual(
      stdioReply(`{"jsonrpc":"1.0","id":"evt_1","result":${result}}`),
    );
    expect(stdio({ kind: 'not-jsonrpc', variant: 'no-id' })).toEqual(
      stdioReply(`{"jsonrpc":"2.0","result":${result}}`),
    );
  });

  it('malformed-json: a cut-off reply by default, or the given text', () => {
    expect(stdio({ kind: 'malformed-json' })).toEqual(
      stdioReply('{"jsonrpc":"2.0","id":"evt_1","result":{"protocolVersion":"draft","effects":['),
    );
    expect(http({ kind: 'malformed-json', text: '{nope' })).toEqual(httpReply('{nope'));
  });

  it('malformed-utf8: E2 82 28 inside the reply, whole or split across two writes', () => {
    const head = Buffer.from(
      '{"jsonrpc":"2.0","id":"evt_1","result":{"protocolVersion":"draft","effects":[{"type":"deny","reason":"bad ',
    );
    const tail = Buffer.from(' utf-8"}]}}\n');
    const whole = once(only({ kind: 'malformed-utf8' }), frameOf(REQ)).actions;
    expect(whole.map((a) => a.type)).toEqual(['write', 'end']);
    expect(Buffer.from(written(whole))).toEqual(Buffer.concat([head, Buffer.from([0xe2, 0x82, 0x28]), tail]));

    const split = once(only({ kind: 'malformed-utf8', split: true, splitDelayMs: 7 }), frameOf(REQ)).actions;
    expect(split.map((a) => [a.type, a.afterMs])).toEqual([
      ['write', 0],
      ['write', 7],
      ['end', 7],
    ]);
    const [first, second] = split as Array<{ bytes: Uint8Array }>;
    expect(Buffer.from(first?.bytes ?? [])).toEqual(Buffer.concat([head, Buffer.from([0xe2, 0x82])]));
    expect(Buffer.from(second?.bytes ?? [])).toEqual(Buffer.concat([Buffer.from([0x28]), tail]));
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(written(split))).toThrow();
  });

  it('raw: exact bytes, no newline added, chunks at their offsets', () => {
    const out = once(
      only({
        kind: 'raw',
        chunks: [{ text: 'ab' }, { base64: Buffer.from([0xff, 0x0a]).toString('base64'), afterMs: 30 }],
      }),
      frameOf(REQ),
    ).actions;
    expect(out.map((a) => [a.type, a.afterMs])).toEqual([
      ['write', 0],
      ['write', 30],
      ['end', 30],
    ]);
    expect(Buffer.from(written(out))).toEqual(Buffer.from([0x61, 0x62, 0xff, 0x0a]));
  });

  it('raw: {{request.id}} in text becomes the id of the request answered, JSON-encoded as it came', () => {
    const behaviour: Behaviour = {
      kind: 'raw',
      chunks: [{ text: '{"jsonrpc":"2.0","id":{{request.id}},"result":{}}\n' }],
    };
    const reply = (id: string | number) =>
      Buffer.from(
        written(once(only(behaviour), frameOf(interceptRequest({ id, eventId: 'evt_9' }))).actions),
      ).toString('utf8');
    expect(reply(3)).toBe('{"jsonrpc":"2.0","id":3,"result":{}}\n');
    expect(reply('req "a"')).toBe('{"jsonrpc":"2.0","id":"req \\"a\\"","result":{}}\n');
    // Base64 chunks are exact bytes: never templated.
    const exact = { base64: Buffer.from('{{request.id}}').toString('base64') };
    const untouched = once(only({ kind: 'raw', chunks: [exact] }), frameOf(REQ)).actions;
    expect(Buffer.from(written(untouched)).toString('utf8')).toBe('{{request.id}}');
  });

  it('pretty: a multi-line frame on stdio, a valid pretty body on HTTP', () => {
    const pretty = JSON.stringify(JSON.parse(EMPTY), null, 2);
    expect(stdio({ kind: 'pretty' })).toEqual(stdioReply(pretty));
    expect(pretty.split('\n').length).toBeGreaterThan(3);
    expect(http({ kind: 'pretty', indent: 4 })).toEqual(
      httpReply(JSON.stringify(JSON.parse(EMPTY), null, 4)),
    );
  });

  it('slow-body: the reply in chunks at a fixed interval', () => {
    const out = once(
      only({ kind: 'slow-body', chunkBytes: 30, intervalMs: 50 }),
      frameOf(REQ, 'http'),
    ).actions;
    expect(out.map((a) => [a.type, a.afterMs])).toEqual([
      ['head', 0],
      ['write', 0],
      ['write', 50],
      ['write', 100],
      ['end', 100],
    ]);
    expect(Buffer.from(written(out)).toString()).toBe(EMPTY);
    const stdioOut = once(only({ kind: 'slow-body', chunkBytes: 40, intervalMs: 10 }), frameOf(REQ)).actions;
    expect(Buffer.from(written(stdioOut)).toString()).toBe(`${EMPTY}\n`);
    expect(stdioOut.filter((a) => a.type === 'write').map((a) => a.afterMs)).toEqual([0, 10, 20]);
  });

  it('reset: closes stdout / destroys the socket, optionally after a prefix of the reply', () => {
    expect(stdio({ kind: 'reset' })).toEqual([{ type: 'reset', afterMs: 0 }]);
    expect(http({ kind: 'reset' })).toEqual([{ type: 'reset', afterMs: 0 }]);
    expect(http({ kind: 'reset', afterBytes: 12 })).toEqual([
      JSON_HEAD,
      { type: 'write', afterMs: 0, bytes: EMPTY.slice(0, 12) },
      { type: 'reset', afterMs: 0 },
    ]);
    expect(stdio({ kind: 'reset', afterBytes: 5 })).toEqual([
      { type: 'write', afterMs: 0, bytes: EMPTY.slice(0, 5) },
      { type: 'reset', afterMs: 0 },
    ]);
  });

  it('hang and silent', () => {
    expect(stdio({ kind: 'hang' })).toEqual([{ type: 'hang', afterMs: 0 }]);
    expect(http({ kind: 'hang' })).toEqual([{ type: 'hang', afterMs: 0 }]);
    expect(stdio({ kind: 'silent' })).toEqual([{ type: 'end', afterMs: 0 }]);
    expect(http({ kind: 'silent' })).toEqual([
      { type: 'head', afterMs: 0, status: 202, headers: {} },
      { type: 'end', afterMs: 0 },
    ]);
  });
});

describe('engine behaviours: time, stdio-only and HTTP-only', () => {
  it('delay shifts every action of the inner behaviour (a late reply)', () => {
    expect(stdio({ kind: 'delay', ms: 2500, then: { kind: 'respond' } })).toEqual(stdioReply(EMPTY, 2500));
    expect(
      http({ kind: 'delay', ms: 40, then: { kind: 'delay', ms: 60, then: { kind: 'respond' } } }),
    ).toEqual(httpReply(EMPTY, 100));
  });

  it('twice: the same reply written twice (stdio)', () => {
    expect(stdio({ kind: 'twice' })).toEqual([
      { type: 'write', afterMs: 0, bytes: `${EMPTY}\n` },
      { type: 'write', afterMs: 0, bytes: `${EMPTY}\n` },
      { type: 'end', afterMs: 0 },
    ]);
  });

  it('exit before replying, and after replying (at the reply time)', () => {
    expect(stdio({ kind: 'exit', code: 3 })).toEqual([{ type: 'exit', afterMs: 0, code: 3 }]);
    expect(
      stdio({ kind: 'exit', code: 1, reply: { kind: 'delay', ms: 20, then: { kind: 'respond' } } }),
    ).toEqual([...stdioReply(EMPTY, 20), { type: 'exit', afterMs: 20, code: 1 }]);
  });

  it('signal: die by a signal, optionally after a reply', () => {
    expect(stdio({ kind: 'signal', signal: 'SIGKILL' })).toEqual([
      { type: 'signal', afterMs: 0, signal: 'SIGKILL' },
    ]);
    expect(stdio({ kind: 'signal', signal: 'SIGSEGV', reply: { kind: 'deny' } }).map((a) => a.type)).toEqual([
      'write',
      'end',
      'signal',
    ]);
  });

  it('http-status: with and without a body, extra headers lower-cased', () => {
    expect(http({ kind: 'http-status', status: 503 })).toEqual([
      { type: 'head', afterMs: 0, status: 503, headers: {} },
      { type: 'end', afterMs: 0 },
    ]);
    expect(
      http(
        { kind: 'http-status', status: 500, body: { text: 'boom' }, headers: { 'Retry-After': '1' } },
        'msw',
      ),
    ).toEqual([
      {
        type: 'head',
        afterMs: 0,
        status: 500,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '1' },
      },
      { type: 'write', afterMs: 0, bytes: 'boom' },
      { type: 'end', afterMs: 0 },
    ]);
  });

  it('http-redirect, http-unauthorized, wrong-content-type', () => {
    expect(http({ kind: 'http-redirect', location: 'http://127.0.0.1:9/elsewhere' })).toEqual([
      { type: 'head', afterMs: 0, status: 307, headers: { location: 'http://127.0.0.1:9/elsewhere' } },
      { type: 'end', afterMs: 0 },
    ]);
    expect(http({ kind: 'http-unauthorized' })).toEqual([
      { type: 'head', afterMs: 0, status: 401, headers: { 'www-authenticate': 'Bearer realm="ahp-mock"' } },
      { type: 'end', afterMs: 0 },
    ]);
    expect(http({ kind: 'http-unauthorized', challenge: 'Bearer resource_metadata="x"' })[0]).toMatchObject({
      headers: { 'www-authenticate': 'Bearer resource_metadata="x"' },
    });
    expect(http({ kind: 'wrong-content-type' })).toEqual([
      { type: 'head', afterMs: 0, status: 200, headers: { 'content-type': 'text/plain' } },
      { type: 'write', afterMs: 0, bytes: EMPTY },
      { type: 'end', afterMs: 0 },
    ]);
  });

  it('a behaviour that does not apply to the transport: stderr line on stdio, 501 on HTTP, and a violation', () => {
    const onStdio = once(only({ kind: 'http-redirect', location: '/x' }), frameOf(REQ));
    expect(readable(onStdio.actions)).toEqual([
      { type: 'log', afterMs: 0, text: "mock-backend: behaviour 'http-redirect' does not apply to stdio" },
      { type: 'end', afterMs: 0 },
    ]);
    expect(onStdio.records.filter((r) => r.type === 'violation')).toMatchObject([
      { code: 'behaviour-not-applicable', delivery: 1 },
    ]);
    for (const behaviour of [
      { kind: 'exit', code: 1 },
      { kind: 'twice' },
      { kind: 'signal', signal: 'SIGKILL' },
    ] as const) {
      const onHttp = once(only(behaviour), frameOf(REQ, 'http'));
      expect(readable(onHttp.actions)).toEqual([
        { type: 'head', afterMs: 0, status: 501, headers: { 'content-type': 'text/plain; charset=utf-8' } },
        {
          type: 'write',
          afterMs: 0,
          bytes: `mock-backend: behaviour '${behaviour.kind}' does not apply to http\n`,
        },
        { type: 'end', afterMs: 0 },
      ]);
    }
  });

  it('a notification answered on purpose gets a reply with id null (a protocol violation for testing)', () => {
    const scenario = {
      rules: [{ match: { message: 'notification' as const }, behaviour: { kind: 'respond' as const } }],
    };
    expect(readable(once(scenario, frameOf(observeNotification())).actions)).toEqual(
      stdioReply('{"jsonrpc":"2.0","id":null,"result":{"protocolVersion":"draft","effects":[]}}'),
    );
  });
});
