import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonStringText, type JsonObject, type JsonValue } from './json.js';
import {
  buildInterceptRequest,
  buildObserveNotification,
  checkInterceptResult,
  InterceptFrames,
  validateInterceptRequest,
  validateInterceptResponse,
  validateObserveNotification,
} from './messages.js';
import { sampleInterceptRequest, sampleToolAfter, sampleToolBefore } from './test-samples.js';
import type { EventEnvelope } from './wire-types.js';

const CTX = {
  protocolVersion: 'draft',
  eventType: 'tool.before',
  capabilities: { effects: ['deny', 'message'] },
};
const codes = (vs: { requirement: string; path: string }[]) => vs.map((v) => `${v.requirement} ${v.path}`);

describe('checkInterceptResult', () => {
  it('accepts [] and valid advertised effects, listing unknown envelope fields', () => {
    expect(checkInterceptResult({ protocolVersion: 'draft', effects: [] }, CTX)).toEqual({
      ok: true,
      effects: [],
      unknownEnvelopeFields: [],
    });
    const deny = { type: 'deny', reason: 'blocked' };
    const result = {
      protocolVersion: 'draft',
      effects: [deny],
      extensions: { 'com.example.x': 1 },
      traceId: 'x',
    };
    expect(checkInterceptResult(result, CTX)).toEqual({
      ok: true,
      effects: [deny],
      unknownEnvelopeFields: ['traceId'],
    });
  });

  it.each<[string, JsonValue]>([
    ['a non-object result', []],
    ['a null result', null],
    ['a missing protocolVersion', { effects: [] }],
    ['a non-string protocolVersion', { protocolVersion: 1, effects: [] }],
    ['missing effects', { protocolVersion: 'draft' }],
    ['non-array effects', { protocolVersion: 'draft', effects: { type: 'deny' } }],
    ['a manifest beside effects', { protocolVersion: 'draft', effects: [], manifest: {} }],
    ['bad extension keys', { protocolVersion: 'draft', effects: [], extensions: { trace: 1 } }],
  ])('judges %s as missing-fields', (_name, result) => {
    const check = checkInterceptResult(result, CTX);
    expect(check.ok === false && check.failureClass).toBe('missing-fields');
  });

  it('judges a different protocolVersion as unsupported, before looking at effects', () => {
    const check = checkInterceptResult({ protocolVersion: '1900-01-01', effects: [{ type: 'bogus' }] }, CTX);
    expect(check).toEqual({
      ok: false,
      failureClass: 'unsupported',
      violations: [
        { path: '$.result.protocolVersion', message: expect.any(String), requirement: 'AHP-VER-001' },
      ],
    });
  });

  it('judges shape before version: a wrong version with missing effects is missing-fields', () => {
    const check = checkInterceptResult({ protocolVersion: '0.1' }, CTX);
    expect(check.ok === false && check.failureClass).toBe('missing-fields');
  });

  it('rejects the whole list atomically, a valid deny beside a bad member included', () => {
    const check = checkInterceptResult(
      { protocolVersion: 'draft', effects: [{ type: 'deny', reason: 'r' }, { type: 'ask' }] },
      CTX,
    );
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.failureClass).toBe('invalid-effects');
      expect(codes(check.violations)).toEqual(['AHP-CAP-001 $.result.effects[1]']);
    }
  });

  it('uses the event for contextual value rules', () => {
    const ctx = {
      protocolVersion: 'draft',
      eventType: 'user.elicitation.result',
      capabilities: { effects: ['modify'], modify: { content: { replace: false, merge: true } } },
      event: { elicitation: { mode: 'form', action: 'decline' } },
    };
    const result = {
      protocolVersion: 'draft',
      effects: [{ type: 'modify', target: 'content', operation: 'merge', value: {} }],
    };
    const check = checkInterceptResult(result, ctx);
    expect(check.ok === false && check.failureClass).toBe('invalid-effects');
    expect(
      checkInterceptResult(result, { ...ctx, event: { elicitation: { mode: 'form', action: 'accept' } } }).ok,
    ).toBe(true);
  });
});

describe('builders', () => {
  it('builds an intercept request whose id is the event id, and it validates', () => {
    const event = sampleToolBefore() as unknown as EventEnvelope;
    const req = buildInterceptRequest({
      protocolVersion: 'draft',
      event,
      capabilities: { effects: ['deny'] },
    });
    expect(req.id).toBe(event.id);
    expect(req.method).toBe('hooks/intercept');
    expect(validateInterceptRequest(req as unknown as JsonValue)).toEqual([]);
  });

  it('serializes intercept requests byte for byte as JSON.stringify of the built request', () => {
    const json = fc.jsonValue() as fc.Arbitrary<JsonValue>;
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.dictionary(fc.string({ unit: 'binary' }), json),
        fc.array(fc.string({ unit: 'binary' })),
        fc.string({ unit: 'binary' }),
        (id, fields, effects, protocolVersion) => {
          const event = { ...fields, id } as unknown as EventEnvelope;
          const capabilities = { effects, extra: fields };
          const frames = new InterceptFrames(protocolVersion, capabilities);
          const expected = JSON.stringify(buildInterceptRequest({ protocolVersion, event, capabilities }));
          expect(frames.frame(event)).toBe(expected);
          expect(frames.frame(event, JSON.stringify(event))).toBe(expected);
          expect(frames.frame(event, JSON.stringify(event), JSON.stringify(id))).toBe(expected);
          expect(frames.frame({ ...event, id: `${id}2` })).toBe(
            JSON.stringify(
              buildInterceptRequest({ protocolVersion, event: { ...event, id: `${id}2` }, capabilities }),
            ),
          );
          // With the incoming control state, which comes last in params.
          const state = { permission: 'none', candidate: { value: fields } };
          expect(frames.frame(event, JSON.stringify(event), undefined, state)).toBe(
            JSON.stringify(buildInterceptRequest({ protocolVersion, event, capabilities, state })),
          );
        },
      ),
    );
  });

  it('writes a string as JSON.stringify does, quoting plain ones without the call', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.stringMatching(/^[\w.:+-]*$/)), (s) => {
        expect(jsonStringText(s)).toBe(JSON.stringify(s));
      }),
    );
  });

  it('serializes a request whose id is not a string, or whose capabilities hold its marks, as stringify does', () => {
    const capabilities = { effects: ['\u0000id', '\u0000event'] };
    const frames = new InterceptFrames('draft', capabilities);
    const event = sampleToolBefore() as unknown as EventEnvelope;
    for (const e of [event, { ...event, id: undefined }, { ...event, id: 7 }] as unknown as EventEnvelope[]) {
      expect(frames.frame(e)).toBe(
        JSON.stringify(buildInterceptRequest({ protocolVersion: 'draft', event: e, capabilities })),
      );
    }
    const plain = new InterceptFrames('draft', { effects: [] });
    expect(plain.frame({ ...event, id: undefined } as unknown as EventEnvelope)).toBe(
      JSON.stringify(
        buildInterceptRequest({
          protocolVersion: 'draft',
          event: { ...event, id: undefined } as unknown as EventEnvelope,
          capabilities: { effects: [] },
        }),
      ),
    );
  });

  it('builds an observe notification without an id, and it validates', () => {
    const note = buildObserveNotification({
      protocolVersion: 'draft',
      event: sampleToolAfter() as unknown as EventEnvelope,
    });
    expect('id' in note).toBe(false);
    expect(validateObserveNotification(note as unknown as JsonValue)).toEqual([]);
  });
});

describe('validateInterceptRequest', () => {
  const mutate = (f: (req: JsonObject & { params: JsonObject }) => void): JsonObject => {
    const req = sampleInterceptRequest() as JsonObject & { params: JsonObject };
    f(req);
    return req;
  };

  it('accepts the sample request', () => {
    expect(validateInterceptRequest(sampleInterceptRequest())).toEqual([]);
  });

  it.each<[string, (r: JsonObject & { params: JsonObject }) => void, string[]]>([
    ['an id that differs from event.id', (r) => (r.id = 'evt_other'), ['AHP-CORE-004 $.id']],
    ['an integer id', (r) => (r.id = 1), ['AHP-CORE-004 $.id', 'AHP-CORE-004 $.id']],
    ['no id (a notification)', (r) => delete r.id, ['AHP-RPC-002 $.id']],
    ['a different method', (r) => (r.method = 'hooks/observe'), ['AHP-RPC-002 $.method']],
    ['a wrong version', (r) => (r.params.protocolVersion = '0.1'), ['AHP-VER-001 $.params.protocolVersion']],
    ['no capabilities', (r) => delete r.params.capabilities, ['AHP-CAP-002 $.params.capabilities']],
    [
      'capabilities without effects',
      (r) => (r.params.capabilities = {}),
      ['AHP-CAP-002 $.params.capabilities.effects'],
    ],
    [
      'no deny at tool.before',
      (r) => (r.params.capabilities = { effects: ['message'] }),
      ['AHP-CAP-002 $.params.capabilities.effects'],
    ],
    [
      'non-reverse-DNS extensions',
      (r) => (r.params.extensions = { trace: {} }),
      ['AHP-EXT-001 $.params.extensions.trace'],
    ],
    ['a non-object state', (r) => (r.params.state = 'none'), ['AHP-CORE-003 $.params.state']],
    ['no event', (r) => delete r.params.event, ['AHP-RPC-001 $.params.event']],
    ['params not an object', (r) => (r.params = [] as unknown as JsonObject), ['AHP-RPC-001 $.params']],
  ])('rejects %s', (_name, f, expected) => {
    expect(codes(validateInterceptRequest(mutate(f)))).toEqual(expected);
  });

  it('rejects a tool.before that breaks AHP-TB-001', () => {
    const req = mutate(
      (r) => ((r.params.event as JsonObject).tool = { name: 'x', callId: 'c', input: {}, origin: 'native' }),
    );
    expect(codes(validateInterceptRequest(req))).toEqual(['AHP-TB-001 $.params.event.tool.callId']);
  });

  it('rejects an observation-only event in an intercept request', () => {
    const event = {
      id: 'evt_1',
      source: 'urn:x:y',
      type: 'turn.end',
      time: '2026-01-01T00:00:00Z',
      turn: {},
      outcome: 'x',
      continuationCount: 0,
      items: [],
    };
    const req = mutate((r) => (r.params.event = event));
    expect(codes(validateInterceptRequest(req))).toEqual(['AHP-RPC-002 $.params.event.type']);
  });

  it('checks capabilities against the event boundary', () => {
    const req = mutate(
      (r) =>
        (r.params.capabilities = {
          effects: ['deny', 'flow'],
          flow: { operations: ['continue'], remainingContinuations: 1, continuationCount: 0 },
        }),
    );
    expect(codes(validateInterceptRequest(req))).toEqual([
      'AHP-CAP-001 $.params.capabilities.flow.operations[0]',
    ]);
  });

  it('returns envelope violations alone for a batch', () => {
    expect(codes(validateInterceptRequest([sampleInterceptRequest()]))).toEqual(['AHP-RPC-001 $']);
  });
});

describe('validateObserveNotification', () => {
  const note = (extra: JsonObject = {}, event: JsonValue = sampleToolAfter()): JsonObject => ({
    jsonrpc: '2.0',
    method: 'hooks/observe',
    params: { protocolVersion: 'draft', event },
    ...extra,
  });

  it('accepts observation of tool.before, tool.after and an observation-only event', () => {
    expect(validateObserveNotification(note())).toEqual([]);
    expect(validateObserveNotification(note({}, sampleToolBefore()))).toEqual([]);
    const end = {
      id: 'e',
      source: 'urn:x:y',
      type: 'session.end',
      time: '2026-01-01T00:00:00Z',
      session: { id: 's' },
      outcome: 'completed',
      reason: 'done',
    };
    expect(validateObserveNotification(note({}, end))).toEqual([]);
  });

  it('rejects an id, a wrong method, a wrong version and an unknown event', () => {
    expect(codes(validateObserveNotification(note({ id: 'x' })))).toEqual(['AHP-RPC-002 $.id']);
    expect(codes(validateObserveNotification(note({ method: 'hooks/intercept' })))).toEqual([
      'AHP-RPC-002 $.method',
    ]);
    const v01 = note();
    (v01.params as JsonObject).protocolVersion = '0.1';
    expect(codes(validateObserveNotification(v01))).toEqual(['AHP-VER-001 $.params.protocolVersion']);
    // tool.error existed in revision "0.1" only.
    expect(
      codes(validateObserveNotification(note({}, { ...sampleToolBefore(), type: 'tool.error' }))),
    ).toEqual(['AHP-RPC-002 $.params.event.type']);
  });
});

describe('validateInterceptResponse', () => {
  const ok = { jsonrpc: '2.0', id: 'evt_1', result: { protocolVersion: 'draft', effects: [] } };

  it('accepts results and error responses', () => {
    expect(validateInterceptResponse(ok)).toEqual([]);
    expect(
      validateInterceptResponse({ jsonrpc: '2.0', id: 'evt_1', error: { code: -32001, message: 'old' } }),
    ).toEqual([]);
  });

  it('checks the echoed id exactly when the request id is known', () => {
    expect(codes(validateInterceptResponse(ok, { requestId: 'evt_2' }))).toEqual(['AHP-CORE-004 $.id']);
    expect(codes(validateInterceptResponse({ ...ok, id: 1 }, { requestId: '1' }))).toEqual([
      'AHP-CORE-004 $.id',
    ]);
    expect(validateInterceptResponse(ok, { requestId: 'evt_1' })).toEqual([]);
  });

  it('without a boundary judges effects by shape only', () => {
    const many = {
      ...ok,
      result: {
        protocolVersion: 'draft',
        effects: [
          { type: 'deny', reason: 'a' },
          { type: 'flow', operation: 'continue' },
        ],
      },
    };
    expect(validateInterceptResponse(many)).toEqual([]);
    const bad = {
      ...ok,
      result: { protocolVersion: 'draft', effects: [{ type: 'message', text: 'x' }, { type: 'unknown' }] },
    };
    expect(codes(validateInterceptResponse(bad))).toEqual(['AHP-DEC-001 $.result.effects[1].type']);
    const version = { ...ok, result: { protocolVersion: '1900-01-01', effects: [] } };
    expect(codes(validateInterceptResponse(version))).toEqual(['AHP-VER-001 $.result.protocolVersion']);
  });

  it('with a boundary judges advertisement too', () => {
    const ask = { ...ok, result: { protocolVersion: 'draft', effects: [{ type: 'ask' }] } };
    expect(validateInterceptResponse(ask)).toEqual([]);
    const ctx = { eventType: 'tool.before', capabilities: { effects: ['deny'] } };
    expect(codes(validateInterceptResponse(ask, ctx))).toEqual(['AHP-CAP-001 $.result.effects[0]']);
  });

  it('rejects a malformed envelope', () => {
    expect(codes(validateInterceptResponse({ ...ok, error: { code: 1, message: 'm' } }))).toEqual([
      'AHP-RPC-001 $',
    ]);
  });
});
