import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from './json.js';
import { checkErrorObject, checkRequestEnvelope, checkResponseEnvelope, idsEqual } from './jsonrpc.js';

const paths = (v: { kind: string; violations?: { path: string }[] }) =>
  (v.violations ?? []).map((x) => x.path);

describe('checkResponseEnvelope', () => {
  it('accepts a result response and returns its id and result', () => {
    expect(checkResponseEnvelope({ jsonrpc: '2.0', id: 'evt_1', result: { effects: [] } })).toEqual({
      kind: 'result',
      id: 'evt_1',
      result: { effects: [] },
    });
  });

  it('accepts an error response with integer code, string message and optional data', () => {
    const msg = {
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32001, message: 'x', data: { supported: ['draft'] } },
    };
    expect(checkResponseEnvelope(msg)).toEqual({
      kind: 'error',
      id: 7,
      error: { code: -32001, message: 'x', data: { supported: ['draft'] } },
    });
    const noData = checkResponseEnvelope({ jsonrpc: '2.0', id: null, error: { code: 1, message: '' } });
    expect(noData).toEqual({ kind: 'error', id: null, error: { code: 1, message: '' } });
  });

  it('accepts a null result value (result present, not missing)', () => {
    expect(checkResponseEnvelope({ jsonrpc: '2.0', id: 'a', result: null }).kind).toBe('result');
  });

  it.each<[string, JsonValue, string[]]>([
    ['a batch', [{ jsonrpc: '2.0', id: 1, result: {} }], ['$']],
    ['a primitive', 'hello', ['$']],
    ['a wrong version', { jsonrpc: '1.0', id: 1, result: {} }, ['$.jsonrpc']],
    ['a missing version', { id: 1, result: {} }, ['$.jsonrpc']],
    ['both result and error', { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'm' } }, ['$']],
    ['neither result nor error', { jsonrpc: '2.0', id: 1 }, ['$']],
    ['a missing id', { jsonrpc: '2.0', result: {} }, ['$.id']],
    ['an empty string id', { jsonrpc: '2.0', id: '', result: {} }, ['$.id']],
    ['a fractional id', { jsonrpc: '2.0', id: 1.5, result: {} }, ['$.id']],
    ['an object id', { jsonrpc: '2.0', id: { a: 1 }, result: {} }, ['$.id']],
    ['a method on a response', { jsonrpc: '2.0', id: 1, method: 'x', result: {} }, ['$.method']],
    [
      'a non-integer error code',
      { jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'm' } },
      ['$.error.code'],
    ],
    [
      'a string error code',
      { jsonrpc: '2.0', id: 1, error: { code: '-32001', message: 'm' } },
      ['$.error.code'],
    ],
    ['a missing error message', { jsonrpc: '2.0', id: 1, error: { code: 1 } }, ['$.error.message']],
    ['an error that is not an object', { jsonrpc: '2.0', id: 1, error: 'boom' }, ['$.error']],
  ])('rejects %s (AHP-RPC-001)', (_name, value, expected) => {
    const check = checkResponseEnvelope(value);
    expect(check.kind).toBe('invalid');
    expect(paths(check)).toEqual(expected);
    if (check.kind === 'invalid')
      expect(check.violations.every((v) => v.requirement === 'AHP-RPC-001')).toBe(true);
  });

  it('tolerates unknown top-level members', () => {
    expect(checkResponseEnvelope({ jsonrpc: '2.0', id: 1, result: {}, extra: true }).kind).toBe('result');
  });

  it('never throws and always returns one of its three kinds, for any JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const kind = checkResponseEnvelope(v as JsonValue).kind;
        expect(['result', 'error', 'invalid']).toContain(kind);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on near-miss envelopes either', () => {
    const near = fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), fc.jsonValue()),
        id: fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.double(), fc.jsonValue()),
        result: fc.jsonValue(),
        error: fc.oneof(
          fc.record({ code: fc.jsonValue(), message: fc.jsonValue() }, { requiredKeys: [] }),
          fc.jsonValue(),
        ),
        method: fc.string(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(near, (v) => {
        const check = checkResponseEnvelope(v as JsonValue);
        if (check.kind !== 'invalid') {
          // Whatever passes really is a well-formed response.
          expect(v.jsonrpc).toBe('2.0');
          expect('result' in v !== 'error' in v).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('checkRequestEnvelope', () => {
  it('classifies requests and notifications', () => {
    expect(checkRequestEnvelope({ jsonrpc: '2.0', id: 'a', method: 'hooks/intercept', params: {} })).toEqual({
      kind: 'request',
      id: 'a',
      method: 'hooks/intercept',
      params: {},
    });
    expect(checkRequestEnvelope({ jsonrpc: '2.0', method: 'hooks/observe' })).toEqual({
      kind: 'notification',
      method: 'hooks/observe',
      params: undefined,
    });
    expect(checkRequestEnvelope({ jsonrpc: '2.0', id: 0, method: 'm', params: [1] }).kind).toBe('request');
  });

  it.each<[string, JsonValue, string[]]>([
    ['a batch', [], ['$']],
    ['a missing method', { jsonrpc: '2.0', id: 1 }, ['$.method']],
    ['an empty method', { jsonrpc: '2.0', id: 1, method: '' }, ['$.method']],
    ['a null id on a request', { jsonrpc: '2.0', id: null, method: 'm' }, ['$.id']],
    ['an empty id', { jsonrpc: '2.0', id: '', method: 'm' }, ['$.id']],
    ['primitive params', { jsonrpc: '2.0', id: 1, method: 'm', params: 3 }, ['$.params']],
    ['a result on a request', { jsonrpc: '2.0', id: 1, method: 'm', result: {} }, ['$']],
    ['a wrong version', { jsonrpc: 2, method: 'm' }, ['$.jsonrpc']],
  ])('rejects %s', (_name, value, expected) => {
    const check = checkRequestEnvelope(value);
    expect(check.kind).toBe('invalid');
    expect(paths(check)).toEqual(expected);
  });

  it('never throws on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(['request', 'notification', 'invalid']).toContain(checkRequestEnvelope(v as JsonValue).kind);
      }),
      { numRuns: 500 },
    );
  });
});

describe('idsEqual and checkErrorObject', () => {
  it('compares ids exactly: "1" is not 1, null only equals null', () => {
    expect(idsEqual('1', 1)).toBe(false);
    expect(idsEqual(1, 1)).toBe(true);
    expect(idsEqual('a', 'a')).toBe(true);
    expect(idsEqual(null, null)).toBe(true);
    expect(idsEqual(null, 'null')).toBe(false);
    expect(idsEqual(0, null)).toBe(false);
  });

  it('reports every problem of an error object at once', () => {
    expect(checkErrorObject({ code: 'x', message: 3 }).map((v) => v.path)).toEqual([
      '$.error.code',
      '$.error.message',
    ]);
  });
});
