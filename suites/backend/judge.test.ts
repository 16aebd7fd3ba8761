import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../protocol/json.js';
import { TRANSPORT_FAILURE_CODE_LIST } from '../../reference-harness/transports/index.js';
import { TRANSPORT_FAULTS } from './faults.js';
import { validateCapabilities } from '../../protocol/capabilities.js';
import { MODIFY_PATH_CAPABILITIES } from './frames.js';
import { decisionFaults, errorFaults, silenceFaults } from './judge.js';
import { RULES } from './rules.js';
import { decision, DENY, failed, notified, replied, rpcError } from './test-observations.js';

const requirementsOf = (faults: { requirement: string | undefined }[]) => faults.map((f) => f.requirement);

describe('decision replies', () => {
  it('accepts [] and one advertised deny with a reason', () => {
    expect(decisionFaults(decision(0, []))).toEqual({
      faults: [],
      effects: [],
      signature: '[]',
      returnedTypes: [],
    });
    expect(decisionFaults(decision(0, [DENY])).effects).toEqual([DENY]);
  });

  it('judges the modify path against its own advertisement, each returned value by its requirement', () => {
    expect(validateCapabilities(MODIFY_PATH_CAPABILITIES, 'tool.before')).toEqual([]);
    const text = { id: 'p', kind: 'text', mediaType: 'text/plain', selection: 'body', text: 'kept' };
    const modify = { type: 'modify', target: 'input', operation: 'merge', value: { command: 'ls' } };
    const inject = (parts: JsonValue[]): JsonValue => ({
      type: 'inject',
      target: 'context',
      operation: 'append',
      deliverAt: 'now',
      value: [{ id: 'm', role: 'system', parts }],
    });
    const judged = (effects: JsonValue[]) => decisionFaults(decision(0, effects), MODIFY_PATH_CAPABILITIES);
    const valid = judged([modify, inject([text])]);
    expect(valid.faults).toEqual([]);
    expect(valid.returnedTypes).toEqual(['modify', 'inject']);
    const jsonPart = judged([modify, inject([{ ...text, kind: 'json' }])]);
    expect(new Set(requirementsOf(jsonPart.faults))).toEqual(new Set(['AHP-CONTENT-001']));
    expect(jsonPart.faults[0]?.rule).toBe(RULES.returnedContent);
    expect(jsonPart.returnedTypes).toEqual(['modify', 'inject']);
    const bareString = judged([{ ...modify, value: 'ls' }]);
    expect(requirementsOf(bareString.faults)).toEqual(['AHP-EDIT-001']);
    expect(bareString.faults[0]?.rule).toBe(RULES.returnedEdit);
    // Only deny advertised: the same edit is unadvertised, and several effects are no deny-only list.
    expect(requirementsOf(decisionFaults(decision(0, [modify])).faults)).toEqual(['AHP-CAP-001']);
  });

  it('ties each defect to the requirement it breaks', () => {
    const wrongId = replied(0, {
      jsonrpc: '2.0',
      id: 'other',
      result: { protocolVersion: 'draft', effects: [] },
    });
    expect(requirementsOf(decisionFaults(wrongId).faults)).toEqual(['AHP-RPC-001']);
    expect(requirementsOf(decisionFaults(replied(0, [{ jsonrpc: '2.0' }])).faults)).toEqual(['AHP-RPC-001']);
    const both = replied(0, { jsonrpc: '2.0', id: 'evt_0', result: {}, error: { code: 1, message: 'x' } });
    expect(requirementsOf(decisionFaults(both).faults)).toContain('AHP-RPC-001');
    expect(requirementsOf(decisionFaults(decision(0, [], { protocolVersion: '2025-01-01' })).faults)).toEqual(
      ['AHP-VER-001'],
    );
    expect(requirementsOf(decisionFaults(decision(0, [{ type: 'allow' }])).faults)).toEqual(['AHP-CAP-001']);
    expect(requirementsOf(decisionFaults(decision(0, [{ type: 'deny', reason: '' }])).faults)).toEqual([
      'AHP-DEC-001',
    ]);
    expect(requirementsOf(decisionFaults(decision(0, [DENY, DENY])).faults)).toEqual(['AHP-DEC-001']);
    expect(requirementsOf(decisionFaults(rpcError(0, -32603)).faults)).toEqual(['AHP-DEC-001']);
    const noEffects = replied(0, { jsonrpc: '2.0', id: 'evt_0', result: { protocolVersion: 'draft' } });
    expect(requirementsOf(decisionFaults(noEffects).faults)).toEqual(['AHP-DEC-001']);
  });

  it('keeps findings of different requirements apart when one reply breaks several', () => {
    const reply = replied(0, {
      jsonrpc: '2.0',
      id: 'x',
      result: { protocolVersion: 'draft', effects: [{ type: 'ask' }] },
    });
    expect(requirementsOf(decisionFaults(reply).faults).sort()).toEqual(['AHP-CAP-001', 'AHP-RPC-001']);
  });

  it('maps transport failures through one table, marking output left over from before the step', () => {
    expect(requirementsOf(decisionFaults(failed(0, 'stdio.framing.multi-line')).faults)).toEqual([
      'AHP-STDIO-001',
    ]);
    expect(requirementsOf(decisionFaults(failed(0, 'http.media-type')).faults)).toEqual(['AHP-HTTP-001']);
    expect(requirementsOf(decisionFaults(failed(0, 'deadline')).faults)).toEqual(['AHP-RPC-002']);
    expect(requirementsOf(decisionFaults(failed(0, 'stdio.launch-failed')).faults)).toEqual([undefined]);
    expect(decisionFaults(failed(0, 'stdio.unsolicited-output')).faults[0]?.ambient).toBe(true);
    expect(decisionFaults(failed(0, 'stdio.exit-nonzero')).faults[0]?.ambient).toBeUndefined();
  });

  it('keys a defect by its rule and way, never by the values of one occurrence', () => {
    const key = (obs: Parameters<typeof decisionFaults>[0]) =>
      decisionFaults(obs).faults.map((f) => `${f.rule.key}#${f.way ?? ''}`);
    expect(key(decision(0, [], { protocolVersion: '2025-01-01' }))).toEqual(
      key(decision(3, [], { protocolVersion: 'v9' })),
    );
    expect(key(decision(0, [{ type: 'deny', reason: '' }]))).toEqual([
      'effects.deny-only-list#$.result.effects[].reason',
    ]);
    expect(key(failed(0, 'stdio.exit-before-reply', 'exited with code 1'))).toEqual(
      key(failed(5, 'stdio.exit-before-reply', 'exited with code 7')),
    );
    const wrongId = (id: string) =>
      replied(0, { jsonrpc: '2.0', id, result: { protocolVersion: 'draft', effects: [] } });
    expect(key(wrongId('a'))).toEqual(key(wrongId('b')));
  });

  it('knows every transport failure code the reference harness can report', () => {
    expect(Object.keys(TRANSPORT_FAULTS).sort()).toEqual(
      [...TRANSPORT_FAILURE_CODE_LIST].filter((c) => !c.startsWith('auth.')).sort(),
    );
  });
});

describe('error replies', () => {
  const refusal = { what: 'a request with protocolVersion "1900-01-01"', rule: RULES.unsupportedVersion };

  it('expects an error with the request id; a result is a fault of the given requirement under the refusal rule', () => {
    expect(errorFaults(rpcError(1, -32001), 'AHP-VER-001', refusal)).toEqual({
      faults: [],
      error: { code: -32001, message: 'no' },
    });
    const answered = errorFaults(decision(1, []), 'AHP-VER-001', refusal);
    expect(answered.faults).toEqual([
      {
        requirement: 'AHP-VER-001',
        step: 2,
        stage: 'outcome',
        rule: RULES.unsupportedVersion,
        way: 'answered-with-result',
        summary: `${RULES.unsupportedVersion.summary}: it was answered with a result`,
        message:
          'a request with protocolVersion "1900-01-01" was answered with a result instead of a JSON-RPC error',
      },
    ]);
    const wrongId = replied(1, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'no' } });
    expect(requirementsOf(errorFaults(wrongId, 'AHP-VER-001', refusal).faults)).toEqual(['AHP-RPC-001']);
  });
});

describe('silence after a notification', () => {
  it('per_event: no output and any exit is silence; any output is an answer; a process that never exits is a lifecycle failure', () => {
    expect(silenceFaults(notified(1, 'request', failed(1, 'stdio.no-reply').reply))).toEqual([]);
    expect(silenceFaults(notified(1, 'request', failed(1, 'stdio.exit-nonzero').reply))).toEqual([]);
    expect(requirementsOf(silenceFaults(notified(1, 'request', decision(1, []).reply)))).toEqual([
      'AHP-RPC-002',
    ]);
    expect(
      requirementsOf(silenceFaults(notified(1, 'request', failed(1, 'stdio.exit-nonzero', 'd', '{}').reply))),
    ).toEqual(['AHP-RPC-002']);
    expect(requirementsOf(silenceFaults(notified(1, 'request', failed(1, 'deadline').reply)))).toEqual([
      'AHP-STDIO-001',
    ]);
  });

  it('persistent stdio: a JSON-RPC response read after the notification is an answer; noise never is', () => {
    expect(silenceFaults(notified(1, 'notify', { ok: true }))).toEqual([]);
    const reply = '{"jsonrpc":"2.0","id":null,"result":{}}';
    expect(requirementsOf(silenceFaults(notified(1, 'notify', { ok: true }, [reply])))).toEqual([
      'AHP-RPC-002',
    ]);
    // A late log line of the request before lands here, read past as noise: not an answer.
    expect(silenceFaults(notified(1, 'notify', { ok: true }, [], ['handled request evt_0']))).toEqual([]);
  });

  it('HTTP: a status or a body breaks the binding; a JSON-RPC response body is also an answer', () => {
    const body = {
      ok: false,
      failure: { failureClass: 'malformed', code: 'http.notify-body', detail: '202 with body' },
    } as const;
    expect(requirementsOf(silenceFaults(notified(1, 'notify', body, ['{"accepted":true}'])))).toEqual([
      'AHP-HTTP-001',
    ]);
    expect(
      requirementsOf(silenceFaults(notified(1, 'notify', body, ['{"jsonrpc":"2.0","id":null,"result":{}}']))),
    ).toEqual(['AHP-HTTP-001', 'AHP-RPC-002']);
  });

  it('HTTP, a notification the backend cannot process: any status is taken; a JSON-RPC response body is an answer', () => {
    const refused = {
      ok: false,
      failure: { failureClass: 'http-status', code: 'http.status', detail: 'HTTP 400' },
    } as const;
    expect(silenceFaults(notified(1, 'notify', refused), true)).toEqual([]);
    expect(requirementsOf(silenceFaults(notified(1, 'notify', refused)))).toEqual(['AHP-HTTP-001']);
    const error = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"no"}}';
    expect(requirementsOf(silenceFaults(notified(1, 'notify', refused, [error]), true))).toEqual([
      'AHP-RPC-002',
    ]);
  });
});
