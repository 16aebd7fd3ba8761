import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { initialState, start, step } from './engine.js';
import {
  frameOf,
  interceptRequest,
  observeNotification,
  once,
  only,
  readable,
  runFrames,
  writtenText,
} from './engine-test-frames.js';
import type { InboundRecord, RecordEntry, Scenario, ViolationRecord } from './model.js';
import { inboundRecords, recordingToJson, violationRecords } from './recording.js';

const EMPTY = (id: string) =>
  `{"jsonrpc":"2.0","id":"${id}","result":{"protocolVersion":"draft","effects":[]}}\n`;
const inbound = (records: RecordEntry[]) => inboundRecords(records)[0] as InboundRecord;
const violations = (records: RecordEntry[]) => violationRecords(records).map((v) => v.code);

describe('engine step: records', () => {
  it('records the exact inbound bytes, arrival time, transport, connection, attempt and delivery', () => {
    const frame = frameOf(interceptRequest(), 'stdio', { at: 1234.5 });
    const { records } = once({ rules: [] }, frame);
    expect(inbound(records)).toEqual({
      type: 'inbound',
      delivery: 1,
      transport: 'stdio',
      connectionId: '4242',
      at: { monotonic: 1234.5, wall: 1_767_225_601_234.5 },
      bytes: { text: Buffer.from(frame.bytes).toString('utf8') },
      kind: 'request',
      method: 'hooks/intercept',
      id: 'evt_1',
      eventId: 'evt_1',
      eventType: 'tool.before',
      toolName: 'Bash',
      attempt: 1,
      rule: null,
      planned: false,
      behaviour: { kind: 'respond' },
    });
  });

  it('records every planned action with encoded bytes, and the HTTP metadata', () => {
    const { records } = once(only({ kind: 'respond' }), frameOf(interceptRequest(), 'http'));
    expect(inbound(records).http).toEqual({
      method: 'POST',
      path: '/',
      headers: { 'content-type': 'application/json' },
    });
    expect(
      records.filter((r) => r.type === 'outbound').map((r) => r.type === 'outbound' && r.action),
    ).toEqual([
      { type: 'head', afterMs: 0, status: 200, headers: { 'content-type': 'application/json' } },
      { type: 'write', afterMs: 0, bytes: { text: EMPTY('evt_1').trimEnd() } },
      { type: 'end', afterMs: 0 },
    ]);
  });

  it('records non-UTF-8 bytes as base64 and the recording reads back as JSON', () => {
    const bytes = new Uint8Array([0x7b, 0xff, 0x7d]);
    const { records } = once({ rules: [] }, frameOf(bytes));
    expect(inbound(records).bytes).toEqual({ base64: Buffer.from(bytes).toString('base64') });
    expect(JSON.parse(recordingToJson(records)).entries).toEqual(records);
  });

  it('never mutates the state it is given', () => {
    const scenario: Scenario = { rules: [{ behaviour: { kind: 'respond' }, times: 1 }] };
    const state = initialState(scenario);
    const snapshot = structuredClone(state);
    step(scenario, state, frameOf(interceptRequest()));
    expect(state).toEqual(snapshot);
  });
});

describe('engine step: matching, times, attempts, sequence', () => {
  it('counts attempts per event id and delivery index across all frames', () => {
    const frames = ['a', 'b', 'a', 'a', 'b'].map((id) => frameOf(interceptRequest({ eventId: id })));
    const results = runFrames({ rules: [] }, frames);
    expect(results.map((r) => [inbound(r.records).delivery, inbound(r.records).attempt])).toEqual([
      [1, 1],
      [2, 1],
      [3, 2],
      [4, 3],
      [5, 2],
    ]);
  });

  it('does not count an observe of the same event as a retry of the intercept', () => {
    const results = runFrames({ rules: [] }, [
      frameOf(interceptRequest()),
      frameOf(observeNotification()),
      frameOf(interceptRequest()),
    ]);
    expect(results.map((r) => inbound(r.records).attempt)).toEqual([1, 1, 2]);
  });

  it('sequence: fail the first two attempts, then answer; the last step repeats', () => {
    const scenario = only({
      kind: 'sequence',
      steps: [{ kind: 'rpc-error', code: -32003 }, { kind: 'rpc-error', code: -32003 }, { kind: 'respond' }],
    });
    const out = runFrames(
      scenario,
      [1, 2, 3, 4].map(() => frameOf(interceptRequest())),
    );
    expect(out.map((r) => writtenText(r.actions))).toEqual([
      '{"jsonrpc":"2.0","id":"evt_1","error":{"code":-32003,"message":"Backend unavailable"}}\n',
      '{"jsonrpc":"2.0","id":"evt_1","error":{"code":-32003,"message":"Backend unavailable"}}\n',
      EMPTY('evt_1'),
      EMPTY('evt_1'),
    ]);
    expect(out.map((r) => inbound(r.records).behaviour.kind)).toEqual([
      'rpc-error',
      'rpc-error',
      'respond',
      'respond',
    ]);
  });

  it('sequence: `then` applies once the steps are used up; each event id has its own count', () => {
    const scenario = only({ kind: 'sequence', steps: [{ kind: 'hang' }], then: { kind: 'deny' } });
    const out = runFrames(
      scenario,
      ['a', 'a', 'b', 'a'].map((id) => frameOf(interceptRequest({ eventId: id }))),
    );
    expect(out.map((r) => inbound(r.records).behaviour.kind)).toEqual(['hang', 'deny', 'hang', 'deny']);
  });

  it('times: a rule fires at most `times`, then the next rule (or the default) decides', () => {
    const scenario: Scenario = {
      rules: [
        { behaviour: { kind: 'rpc-error', code: -32004 }, times: 2 },
        { match: { toolName: 'Read' }, behaviour: { kind: 'deny' } },
      ],
    };
    const frames = ['Bash', 'Bash', 'Bash', 'Read'].map((tool, i) =>
      frameOf(interceptRequest({ eventId: `e${i}`, tool })),
    );
    const out = runFrames(scenario, frames);
    expect(out.map((r) => [inbound(r.records).rule, inbound(r.records).planned])).toEqual([
      [0, true],
      [0, true],
      [null, false],
      [1, true],
    ]);
    expect(out[3]?.state.fired).toEqual([2, 1]);
  });

  it('matches on method, event type, tool name, field predicates, attempt range, delivery and transport', () => {
    const scenario: Scenario = {
      rules: [
        { match: { method: 'hooks/capabilities' }, behaviour: { kind: 'rpc-error', code: -32601 } },
        { match: { eventType: 'tool.after' }, behaviour: { kind: 'rpc-error', code: -32002 } },
        {
          match: { fields: [{ path: 'tool.input.command', contains: 'rm -rf' }] },
          behaviour: { kind: 'deny' },
        },
        {
          match: { fields: [{ path: 'tool.input.flags', contains: 'force' }] },
          behaviour: { kind: 'deny', reason: 'flag' },
        },
        { match: { fields: [{ path: 'call.id', equals: 'call_9' }] }, behaviour: { kind: 'hang' } },
        { match: { attempt: { min: 2 } }, behaviour: { kind: 'reset' } },
        { match: { delivery: 9 }, behaviour: { kind: 'silent' } },
        { match: { transport: 'http' }, behaviour: { kind: 'http-status', status: 500 } },
      ],
    };
    const call9 = interceptRequest({ eventId: 'c9' });
    (call9.params as { event: { call: { id: string } } }).event.call.id = 'call_9';
    const frames = [
      frameOf({
        jsonrpc: '2.0',
        id: 'cap',
        method: 'hooks/capabilities',
        params: { protocolVersion: 'draft' },
      }),
      frameOf(interceptRequest({ eventId: 'e1', type: 'tool.after' })),
      frameOf(interceptRequest({ eventId: 'e2', input: { command: 'sudo rm -rf /' } })),
      frameOf(interceptRequest({ eventId: 'e3', input: { flags: ['x', 'force'] } })),
      frameOf(call9),
      frameOf(interceptRequest({ eventId: 'e4' })),
      frameOf(interceptRequest({ eventId: 'e4' })),
      frameOf(interceptRequest({ eventId: 'e5' }), 'http'),
      frameOf(interceptRequest({ eventId: 'e6' })),
      frameOf(interceptRequest({ eventId: 'e7', input: { command: 'ls', flags: ['forceful'] } })),
    ];
    const out = runFrames(scenario, frames);
    expect(out.map((r) => inbound(r.records).rule)).toEqual([0, 1, 2, 3, 4, null, 5, 7, 6, null]);
  });

  it('rules never match a notification unless they ask for one; notifications are silent by default', () => {
    const scenario = only({ kind: 'deny' });
    const { actions, records } = once(scenario, frameOf(observeNotification()));
    expect(actions).toEqual([{ type: 'end', afterMs: 0 }]);
    expect(inbound(records)).toMatchObject({
      kind: 'notification',
      method: 'hooks/observe',
      rule: null,
      planned: false,
    });
    const http = once(scenario, frameOf(observeNotification(), 'http'));
    expect(readable(http.actions)).toEqual([
      { type: 'head', afterMs: 0, status: 202, headers: {} },
      { type: 'end', afterMs: 0 },
    ]);
  });
});

describe('engine step: strategies', () => {
  it('unmatched: [] by default (unplanned), or the scenario strategy', () => {
    const dflt = once({ rules: [] }, frameOf(interceptRequest()));
    expect(writtenText(dflt.actions)).toBe(EMPTY('evt_1'));
    expect(inbound(dflt.records).planned).toBe(false);
    const custom = once(
      { rules: [], unmatched: { kind: 'rpc-error', code: -32601 } },
      frameOf(interceptRequest()),
    );
    expect(writtenText(custom.actions)).toBe(
      '{"jsonrpc":"2.0","id":"evt_1","error":{"code":-32601,"message":"Method not found"}}\n',
    );
  });

  it('unparseable: invalid UTF-8, not JSON, empty -> -32700; not JSON-RPC -> -32600; id null; violations recorded', () => {
    const cases: Array<[Uint8Array | string, number, string]> = [
      [new Uint8Array([0x7b, 0xc3, 0x28, 0x7d]), -32700, 'invalid-utf8'],
      ['{"jsonrpc":', -32700, 'not-json'],
      ['   ', -32700, 'empty-frame'],
      ['[{"jsonrpc":"2.0","id":"a","method":"x"}]', -32600, 'invalid-envelope'],
      ['{"id":"a","method":"hooks/intercept"}', -32600, 'invalid-envelope'],
    ];
    for (const [payload, code, violation] of cases) {
      const f =
        payload instanceof Uint8Array ? frameOf(payload) : frameOf(payload, 'stdio', { asText: true });
      const { actions, records } = once(only({ kind: 'deny' }), f);
      const message = code === -32700 ? 'Parse error' : 'Invalid Request';
      expect(writtenText(actions)).toBe(
        `{"jsonrpc":"2.0","id":null,"error":{"code":${code},"message":"${message}"}}\n`,
      );
      expect(inbound(records)).toMatchObject({ kind: 'unparseable', rule: null, planned: false, attempt: 1 });
      expect(violations(records)).toContain(violation);
    }
  });

  it('unparseable: the scenario strategy replaces the default', () => {
    const { actions } = once(
      { rules: [], unparseable: { kind: 'hang' } },
      frameOf('nope', 'stdio', { asText: true }),
    );
    expect(actions).toEqual([{ type: 'hang', afterMs: 0 }]);
  });

  it('records AHP violations of well-formed requests and still answers them', () => {
    const mismatch = once({ rules: [] }, frameOf(interceptRequest({ id: 'outer', eventId: 'inner' })));
    expect(violations(mismatch.records)).toEqual(['id-mismatch']);
    expect(writtenText(mismatch.actions)).toBe(EMPTY('outer'));
    const observeWithId = once({ rules: [] }, frameOf({ ...observeNotification(), id: 'x' }));
    expect(violations(observeWithId.records)).toEqual(['notification-with-id']);
  });

  it('probability: same seed and inputs give the same choices; another seed differs; both branches occur', () => {
    const scenario = (seed: number): Scenario =>
      only(
        { kind: 'probability', p: 0.5, behaviour: { kind: 'deny' }, otherwise: { kind: 'respond' } },
        { seed },
      );
    const frames = Array.from({ length: 40 }, (_, i) => frameOf(interceptRequest({ eventId: `e${i}` })));
    const kinds = (seed: number) =>
      runFrames(scenario(seed), frames).map((r) => inbound(r.records).behaviour.kind);
    expect(kinds(42)).toEqual(kinds(42));
    expect(kinds(42)).not.toEqual(kinds(43));
    expect(new Set(kinds(42))).toEqual(new Set(['deny', 'respond']));
    expect(
      runFrames(
        only({ kind: 'probability', p: 0, behaviour: { kind: 'deny' }, otherwise: { kind: 'hang' } }),
        frames,
      ).every((r) => r.actions[0]?.type === 'hang'),
    ).toBe(true);
    expect(
      runFrames(
        only({ kind: 'probability', p: 1, behaviour: { kind: 'deny' }, otherwise: { kind: 'hang' } }),
        frames,
      ).every((r) => r.actions[0]?.type === 'write'),
    ).toBe(true);
  });
});

describe('engine step: HTTP gates', () => {
  const bearer: Scenario = { rules: [], http: { requireBearer: { token: 's3cret' } } };
  const withHeaders = (headers: Record<string, string>) =>
    frameOf(interceptRequest(), 'http', { http: { method: 'POST', path: '/intercept', headers } });

  it('a required bearer token: missing or wrong -> 401 with the challenge, right -> rules', () => {
    const missing = once(bearer, withHeaders({ 'content-type': 'application/json' }));
    expect(readable(missing.actions)).toEqual([
      { type: 'head', afterMs: 0, status: 401, headers: { 'www-authenticate': 'Bearer realm="ahp-mock"' } },
      { type: 'end', afterMs: 0 },
    ]);
    expect(violations(missing.records)).toEqual(['auth-missing']);
    const wrong = once(
      bearer,
      withHeaders({ 'content-type': 'application/json', authorization: 'Bearer nope' }),
    );
    expect(violations(wrong.records)).toEqual(['auth-wrong']);
    expect(wrong.actions[0]).toMatchObject({ status: 401 });
    const right = once(
      bearer,
      withHeaders({ 'content-type': 'application/json', authorization: 'bearer s3cret' }),
    );
    expect(violations(right.records)).toEqual([]);
    expect(writtenText(right.actions)).toBe(EMPTY('evt_1').trimEnd());
  });

  it('a non-POST request gets 405; a wrong request media type is recorded but answered', () => {
    const get = once(
      { rules: [] },
      frameOf(new Uint8Array(), 'http', { http: { method: 'GET', path: '/', headers: {} } }),
    );
    expect(readable(get.actions)[0]).toEqual({
      type: 'head',
      afterMs: 0,
      status: 405,
      headers: { allow: 'POST' },
    });
    expect(violations(get.records)).toContain('http-method');
    const text = once({ rules: [] }, withHeaders({ 'content-type': 'text/plain' }));
    expect(violations(text.records)).toEqual(['http-content-type']);
    expect(writtenText(text.actions)).toBe(EMPTY('evt_1').trimEnd());
  });

  it('the bearer gate does not apply to stdio', () => {
    expect(writtenText(once(bearer, frameOf(interceptRequest())).actions)).toBe(EMPTY('evt_1'));
  });
});

describe('engine start', () => {
  const ctx = { transport: 'stdio' as const, connectionId: '77', at: { monotonic: 0, wall: 0 } };
  it('writes the banner line, or refuses to start with a stderr line and an exit code', () => {
    const banner = start({ rules: [], process: { banner: 'mock ready!' } }, initialState({ rules: [] }), ctx);
    expect(readable(banner.actions)).toEqual([{ type: 'write', afterMs: 0, bytes: 'mock ready!\n' }]);
    expect(banner.records).toMatchObject([{ type: 'outbound', delivery: 0, connectionId: '77' }]);
    const refuse = start(
      { rules: [], process: { refuseToStart: { exitCode: 9 } } },
      initialState({ rules: [] }),
      ctx,
    );
    expect(readable(refuse.actions)).toEqual([
      { type: 'log', afterMs: 0, text: 'mock-backend: refusing to start (scenario setting)' },
      { type: 'exit', afterMs: 0, code: 9 },
    ]);
  });
  it('does nothing for HTTP or msw', () => {
    expect(
      start({ rules: [], process: { banner: 'x' } }, initialState({ rules: [] }), {
        ...ctx,
        transport: 'http',
      }).actions,
    ).toEqual([]);
  });
});

describe('engine never throws', () => {
  it('on arbitrary bytes: no throw, one inbound record, at least one action, delivery advances', () => {
    const scenario: Scenario = { rules: [{ match: { toolName: 'Bash' }, behaviour: { kind: 'deny' } }] };
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 200 }),
          fc.json().map((s) => new TextEncoder().encode(s)),
          fc
            .jsonValue()
            .map((v) =>
              new TextEncoder().encode(
                JSON.stringify({ jsonrpc: '2.0', id: 'x', method: 'hooks/intercept', params: v }),
              ),
            ),
        ),
        fc.constantFrom('stdio' as const, 'http' as const, 'msw' as const),
        (bytes, transport) => {
          const result = step(scenario, initialState(scenario), frameOf(bytes, transport));
          expect(inboundRecords(result.records)).toHaveLength(1);
          expect(result.actions.length).toBeGreaterThan(0);
          expect(result.state.deliveries).toBe(1);
          expect(() => JSON.stringify(result.records)).not.toThrow();
        },
      ),
      { numRuns: 500 },
    );
  });

  it('on a hand-built behaviour the parser would reject: an engine-error violation and an answer', () => {
    const broken = { rules: [{ behaviour: null }] } as unknown as Scenario;
    const result = step(broken, initialState(broken), frameOf(interceptRequest(), 'http'));
    expect((result.records.find((r) => r.type === 'violation') as ViolationRecord).code).toBe('engine-error');
    expect(result.actions[0]).toMatchObject({ type: 'head', status: 500 });
    const unknownKind = { rules: [{ behaviour: { kind: 'nope' } }] } as unknown as Scenario;
    const r2 = step(unknownKind, initialState(unknownKind), frameOf(interceptRequest()));
    expect(violationRecords(r2.records).map((v) => v.code)).toEqual(['behaviour-not-applicable']);
  });
});
