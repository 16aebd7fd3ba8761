import { describe, expect, it } from 'vitest';
import { checkShape, invokeResultSchema } from '../../protocol/driver-protocol/index.js';
import type { AuditRecord, InvokeResult } from '../index.js';
import { toDriverAuditEntry, toDriverInvokeResult } from './result-mapping.js';

const RECORD: AuditRecord = {
  backendId: 'com.example.a',
  hookIndex: 0,
  subscriptionIndex: 1,
  mode: 'intercept',
  outcome: 'operational-failure',
  failureClass: 'malformed',
  failureCode: 'stdio.not-json',
  policy: 'fail-closed',
  synthetic: true,
  attempts: 2,
  startedAt: 10.25,
  settledAt: 25.875,
  detail: 'backend wrote: secret-ish bytes',
  lateResponse: { at: 30, bytesLength: 12 },
};

describe('toDriverAuditEntry', () => {
  it('keeps the protocol fields and the reference extensions, never local-only detail', () => {
    expect(toDriverAuditEntry(RECORD)).toEqual({
      backendId: 'com.example.a',
      outcome: 'operational-failure',
      failureClass: 'malformed',
      failureCode: 'stdio.not-json',
      policy: 'fail-closed',
      synthetic: true,
      mode: 'intercept',
      subscriptionIndex: 1,
      attempts: 2,
      durationMs: 15.625,
    });
  });

  it('leaves out what the record does not know', () => {
    const entry = toDriverAuditEntry({
      backendId: 'b',
      hookIndex: 0,
      subscriptionIndex: 0,
      mode: 'observe',
      outcome: 'no-effect',
      attempts: 1,
      startedAt: 5,
      settledAt: 5,
      boundaryCopy: true,
    });
    expect(entry).toEqual({
      backendId: 'b',
      outcome: 'no-effect',
      mode: 'observe',
      subscriptionIndex: 0,
      attempts: 1,
      durationMs: 0,
      boundaryCopy: true,
    });
  });
});

describe('toDriverInvokeResult', () => {
  it('reports decision, reason, flags, ending and the event id; no transcript or event body', () => {
    const result = {
      decision: 'deny',
      reason: 'The call was interrupted.',
      synthetic: true,
      interrupted: true,
      ending: 'budget-expired',
      permission: 'none',
      finalPermission: 'deny',
      executed: false,
      messages: [],
      event: { id: 'evt_9', type: 'turn.start' },
      effectiveEvent: { id: 'evt_9', type: 'turn.start' },
      audit: [RECORD],
      transcript: [{ backendId: 'x', direction: 'out', at: 1, text: '{}', attempt: 1 }],
    } as unknown as InvokeResult;
    const mapped = toDriverInvokeResult(result);
    expect(Object.keys(mapped)).toEqual([
      'decision',
      'reason',
      'synthetic',
      'interrupted',
      'ending',
      'eventId',
      'eventType',
      'executed',
      'permission',
      'messages',
      'audit',
    ]);
    expect(mapped).toMatchObject({
      decision: 'deny',
      ending: 'budget-expired',
      eventId: 'evt_9',
      eventType: 'turn.start',
      executed: false,
      permission: 'deny',
    });
    expect(mapped.audit).toHaveLength(1);
    // What the reference driver answers is what the suite's check of the protocol accepts.
    expect(checkShape(invokeResultSchema, mapped, '$.result')).toEqual({ ok: true, value: mapped });
  });

  it('v1.3: a stop is reported as flow stop beside decision continue, with input, result and the rest', () => {
    const injection = { type: 'inject', target: 'context', operation: 'append', deliverAt: 'now', value: [] };
    const base = {
      decision: 'continue',
      synthetic: false,
      interrupted: false,
      permission: 'none',
      finalPermission: 'allow',
      executed: false,
      messages: ['a', 'b'],
      event: { id: 'evt_3', type: 'tool.before' },
      effectiveEvent: { id: 'evt_3', type: 'tool.before', tool: { name: 't', input: { q: 2 } } },
      audit: [],
      transcript: [],
    };
    const stopped = toDriverInvokeResult({
      ...base,
      flow: 'stop',
      reason: 'halt',
      injections: [injection],
    } as unknown as InvokeResult);
    expect(stopped).toMatchObject({
      decision: 'continue',
      reason: 'halt',
      executed: false,
      flow: 'stop',
      messages: ['a', 'b'],
      input: { q: 2 },
      injections: [injection],
    });
    expect(stopped).not.toHaveProperty('result');
    expect(stopped).not.toHaveProperty('continuationRemaining');
    const supplied = toDriverInvokeResult({ ...base, result: { value: null } } as unknown as InvokeResult);
    expect(supplied).toHaveProperty('result', null);
    expect(supplied).not.toHaveProperty('flow');
    const finish = toDriverInvokeResult({
      ...base,
      event: { id: 'evt_4', type: 'turn.finish.before' },
      effectiveEvent: { id: 'evt_4', type: 'turn.finish.before' },
      flow: 'continue',
      continuationInstructions: ['x'],
      continuationRemaining: 0,
    } as unknown as InvokeResult);
    expect(finish).toMatchObject({
      flow: 'continue',
      continuationInstructions: ['x'],
      continuationRemaining: 0,
    });
    expect(finish).not.toHaveProperty('input');
    for (const mapped of [stopped, supplied, finish])
      expect(checkShape(invokeResultSchema, mapped, '$.result')).toEqual({ ok: true, value: mapped });
  });
});
