import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../protocol/json.js';
import { judgeReply, type ReplyContext } from './reply-judge.js';
import type { TransportReply } from './transport.js';

const ctx: ReplyContext = {
  requestId: 'evt_1',
  protocolVersion: 'draft',
  eventType: 'tool.before',
  capabilities: { effects: ['deny'] },
  event: {},
};

function reply(message: JsonValue): TransportReply {
  return { ok: true, message, raw: new TextEncoder().encode(JSON.stringify(message)) };
}
const ok = (result: JsonValue, id: JsonValue = 'evt_1') => reply({ jsonrpc: '2.0', id, result });
const deny = { type: 'deny', reason: 'no' };

describe('judgeReply', () => {
  it('accepts [] and a valid deny', () => {
    expect(judgeReply(ok({ protocolVersion: 'draft', effects: [] }), ctx)).toEqual({
      ok: true,
      effects: [],
      unknownEnvelopeFields: [],
    });
    const r = judgeReply(ok({ protocolVersion: 'draft', effects: [deny], note: 1 }), ctx);
    expect(r).toEqual({ ok: true, effects: [deny], unknownEnvelopeFields: ['note'] });
  });

  it('passes a transport failure through unchanged', () => {
    const failure = { failureClass: 'process', code: 'stdio.exit-nonzero', detail: 'exit 3' } as const;
    expect(judgeReply({ ok: false, failure }, ctx)).toEqual({ ok: false, failure });
  });

  const cases: Array<[string, JsonValue, string, string]> = [
    ['a batch', [{ jsonrpc: '2.0', id: 'evt_1', result: {} }], 'malformed', 'jsonrpc.invalid-envelope'],
    [
      'result and error',
      { jsonrpc: '2.0', id: 'evt_1', result: {}, error: { code: 1, message: 'x' } },
      'malformed',
      'jsonrpc.invalid-envelope',
    ],
    ['a wrong jsonrpc', { jsonrpc: '1.0', id: 'evt_1', result: {} }, 'malformed', 'jsonrpc.invalid-envelope'],
    [
      'another id',
      { jsonrpc: '2.0', id: 'evt_2', result: { protocolVersion: 'draft', effects: [] } },
      'id-mismatch',
      'jsonrpc.id-mismatch',
    ],
    [
      'a null id',
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse' } },
      'id-mismatch',
      'jsonrpc.id-mismatch',
    ],
    [
      '-32001',
      { jsonrpc: '2.0', id: 'evt_1', error: { code: -32001, message: 'v' } },
      'unsupported',
      'jsonrpc.unsupported-protocol-version',
    ],
    [
      '-32002',
      { jsonrpc: '2.0', id: 'evt_1', error: { code: -32002, message: 'e' } },
      'unsupported',
      'jsonrpc.unsupported-event',
    ],
    [
      '-32003',
      { jsonrpc: '2.0', id: 'evt_1', error: { code: -32003, message: 'u' } },
      'jsonrpc-error',
      'jsonrpc.error-response',
    ],
    [
      'no effects',
      { jsonrpc: '2.0', id: 'evt_1', result: { protocolVersion: 'draft' } },
      'missing-fields',
      'result.missing-fields',
    ],
    [
      'a wrong version',
      { jsonrpc: '2.0', id: 'evt_1', result: { protocolVersion: '0.1', effects: [] } },
      'unsupported',
      'result.protocol-version',
    ],
    [
      'an unadvertised effect',
      { jsonrpc: '2.0', id: 'evt_1', result: { protocolVersion: 'draft', effects: [{ type: 'allow' }] } },
      'invalid-effects',
      'result.effect-unadvertised',
    ],
    [
      'an unknown effect beside a deny',
      { jsonrpc: '2.0', id: 'evt_1', result: { protocolVersion: 'draft', effects: [deny, { type: 'x' }] } },
      'invalid-effects',
      'result.effect-unknown',
    ],
    [
      'a deny with an unknown field',
      { jsonrpc: '2.0', id: 'evt_1', result: { protocolVersion: 'draft', effects: [{ ...deny, extra: 1 }] } },
      'invalid-effects',
      'result.effect-malformed',
    ],
  ];
  it.each(cases)('classifies %s', (_name, message, failureClass, code) => {
    const r = judgeReply(reply(message), ctx);
    expect(r.ok).toBe(false);
    if (!r.ok) expect([r.failure.failureClass, r.failure.code]).toEqual([failureClass, code]);
  });

  it('never takes the numeric id 1 for the string "1"', () => {
    const r = judgeReply(ok({ protocolVersion: 'draft', effects: [] }, 1), { ...ctx, requestId: '1' });
    expect(r.ok).toBe(false);
  });
});
