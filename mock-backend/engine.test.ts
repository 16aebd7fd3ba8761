import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { initialState, start, step } from './engine.js';
import { BUILTIN_SCENARIOS } from './builtins.js';
import {
  emptyReply,
  frameOf,
  interceptRequest,
  observeNotification,
  once,
  only,
  readable,
  runFrames,
  writtenText,
} from './engine-test-frames.js';
import type { Behaviour, InboundRecord, RecordEntry, Scenario, Transport, ViolationRecord } from './model.js';
import { inboundRecords, recordAction, recordingToJson, violationRecords } from './recording.js';

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
      { type: 'write', afterMs: 0, bytes: { text: emptyReply('evt_1').trimEnd() } },
      { type: 'end', afterMs: 0 },
    ]);
  });

  it('records non-UTF-8 bytes as base64 and the recording reads back as JSON', () => {
    const bytes = new Uint8Array([0x7b, 0xff, 0x7d]);
    const { records } = once({ rules: [] }, frameOf(bytes));
    expect(inbound(records).bytes).toEqual({ base64: Buffer.from(bytes).toString('base64') });
    expect(JSON.parse(recordingToJson(records)).entries).toEqual(records);
  });

  it('is deterministic: the same scenario, fresh state and frames give the same results', () => {
    const scenario: Scenario = {
      seed: 5,
      rules: [
        {
          behaviour: {
            kind: 'probability',
            p: 0.5,
            behaviour: { kind: 'deny' },
            otherwise: { kind: 'hang' },
          },
        },
      ],
    };
    const frames = ['a', 'b', 'a', 'c'].map((id) => frameOf(interceptRequest({ eventId: id })));
    const once = () => {
      let state = initialState(scenario);
      return frames.map((f) => {
        const r = step(scenario, state, f);
        state = r.state;
        return r;
      });
    };
    expect(once()).toEqual(once());
  });

  it('records the actions the step returned and the behaviour carried out (re-planned on read), for every built-in', () => {
    const frames = (transport: Transport) => [
      ...['a', 'a', 'b', 'a', 'c', 'c', 'd'].map((id) =>
        frameOf(interceptRequest({ eventId: id }), transport),
      ),
      frameOf(observeNotification('a'), transport),
      frameOf(new Uint8Array([0x7b, 0xff]), transport),
    ];
    const seeded = (scenario: Scenario): Scenario[] => [
      scenario,
      { ...scenario, seed: 11 },
      { ...scenario, seed: 12 },
    ];
    for (const { scenario, transports } of Object.values(BUILTIN_SCENARIOS)) {
      for (const transport of transports) {
        for (const s of seeded(scenario)) {
          for (const result of runFrames(s, frames(transport))) {
            const outbound = result.records.flatMap((r) => (r.type === 'outbound' ? [r.action] : []));
            expect(outbound).toEqual(result.actions.map(recordAction));
          }
        }
      }
    }
  });

  it('records the behaviour a sequence and a seeded draw chose for each attempt', () => {
    const fail: Behaviour = { kind: 'rpc-error', code: -32003 };
    const scenario: Scenario = {
      seed: 3,
      rules: [
        {
          match: { toolName: 'Seq' },
          behaviour: { kind: 'sequence', steps: [fail, fail], then: { kind: 'respond' } },
        },
        {
          behaviour: {
            kind: 'probability',
            p: 0.5,
            behaviour: { kind: 'deny' },
            otherwise: { kind: 'hang' },
          },
        },
      ],
    };
    const results = runFrames(
      scenario,
      ['s', 's', 's', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6'].map((id) =>
        frameOf(interceptRequest({ eventId: id, tool: id === 's' ? 'Seq' : 'Bash' })),
      ),
    );
    const chosen = results.map((r) => inbound(r.records).behaviour.kind);
    expect(chosen.slice(0, 3)).toEqual(['rpc-error', 'rpc-error', 'respond']);
    // Each draw's recorded choice is the one whose bytes went out: a deny reply, or nothing (hang).
    for (const r of results.slice(3)) {
      expect(inbound(r.records).behaviour.kind).toBe(
        writtenText(r.actions).includes('"deny"') ? 'deny' : 'hang',
      );
    }
    expect(new Set(chosen.slice(3))).toEqual(new Set(['deny', 'hang']));
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
    expect(writtenText(right.actions)).toBe(emptyReply('evt_1').trimEnd());
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
    expect(writtenText(text.actions)).toBe(emptyReply('evt_1').trimEnd());
  });

  it('the bearer gate does not apply to stdio', () => {
    expect(writtenText(once(bearer, frameOf(interceptRequest())).actions)).toBe(emptyReply('evt_1'));
  });
});

describe('engine start', () => {
  const ctx = { transport: 'stdio' as const, connectionId: '77', at: { monotonic: 0, wall: 0 } };
  it('writes the banner line, or refuses to start with a stderr line and an exit code', () => {
    const banner = start({ rules: [], process: { banner: 'mock ready!' } }, initialState({ rules: [] }), ctx);
    expect(readable(banner.actions)).toEqual([{ type: 'write', afterMs: 0, bytes: 'mock ready!\n' }]);
    expect(banner.recorded).toMatchObject([{ type: 'outbound', delivery: 0, connectionId: '77' }]);
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
          const result = once(scenario, frameOf(bytes, transport));
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
    const result = once(broken, frameOf(interceptRequest(), 'http'));
    expect((result.records.find((r) => r.type === 'violation') as ViolationRecord).code).toBe('engine-error');
    expect(result.actions[0]).toMatchObject({ type: 'head', status: 500 });
    const unknownKind = { rules: [{ behaviour: { kind: 'nope' } }] } as unknown as Scenario;
    const r2 = once(unknownKind, frameOf(interceptRequest()));
    expect(violationRecords(r2.records).map((v) => v.code)).toEqual(['behaviour-not-applicable']);
  });
});
