import { describe, expect, it } from 'vitest';
import { TRANSPORT_FAILURE_CODE_LIST } from '../../reference-harness/transports/index.js';
import { decisionFindings, errorFindings, silenceFindings, TRANSPORT_CODE_REQUIREMENTS } from './judge.js';
import { decision, DENY, failed, notified, replied, rpcError } from './test-observations.js';

const requirementsOf = (findings: { requirement: string | undefined }[]) =>
  findings.map((f) => f.requirement);

describe('decision replies', () => {
  it('accepts [] and one advertised deny with a reason', () => {
    expect(decisionFindings(decision(0, []))).toEqual({ findings: [], effects: [], signature: '[]' });
    expect(decisionFindings(decision(0, [DENY])).effects).toEqual([DENY]);
  });

  it('ties each defect to the requirement it breaks', () => {
    const wrongId = replied(0, {
      jsonrpc: '2.0',
      id: 'other',
      result: { protocolVersion: 'draft', effects: [] },
    });
    expect(requirementsOf(decisionFindings(wrongId).findings)).toEqual(['AHP-RPC-001']);
    expect(requirementsOf(decisionFindings(replied(0, [{ jsonrpc: '2.0' }])).findings)).toEqual([
      'AHP-RPC-001',
    ]);
    const both = replied(0, { jsonrpc: '2.0', id: 'evt_0', result: {}, error: { code: 1, message: 'x' } });
    expect(requirementsOf(decisionFindings(both).findings)).toContain('AHP-RPC-001');
    expect(
      requirementsOf(decisionFindings(decision(0, [], { protocolVersion: '2025-01-01' })).findings),
    ).toEqual(['AHP-VER-001']);
    expect(requirementsOf(decisionFindings(decision(0, [{ type: 'allow' }])).findings)).toEqual([
      'AHP-CAP-001',
    ]);
    expect(requirementsOf(decisionFindings(decision(0, [{ type: 'deny', reason: '' }])).findings)).toEqual([
      'AHP-DEC-001',
    ]);
    expect(requirementsOf(decisionFindings(decision(0, [DENY, DENY])).findings)).toEqual(['AHP-DEC-001']);
    expect(requirementsOf(decisionFindings(rpcError(0, -32603)).findings)).toEqual(['AHP-DEC-001']);
    const noEffects = replied(0, { jsonrpc: '2.0', id: 'evt_0', result: { protocolVersion: 'draft' } });
    expect(requirementsOf(decisionFindings(noEffects).findings)).toEqual(['AHP-DEC-001']);
  });

  it('keeps findings of different requirements apart when one reply breaks several', () => {
    const reply = replied(0, {
      jsonrpc: '2.0',
      id: 'x',
      result: { protocolVersion: 'draft', effects: [{ type: 'ask' }] },
    });
    expect(requirementsOf(decisionFindings(reply).findings).sort()).toEqual(['AHP-CAP-001', 'AHP-RPC-001']);
  });

  it('maps transport failures through one table, marking output left over from before the step', () => {
    expect(requirementsOf(decisionFindings(failed(0, 'stdio.framing.multi-line')).findings)).toEqual([
      'AHP-STDIO-001',
    ]);
    expect(requirementsOf(decisionFindings(failed(0, 'http.media-type')).findings)).toEqual(['AHP-HTTP-001']);
    expect(requirementsOf(decisionFindings(failed(0, 'deadline')).findings)).toEqual(['AHP-RPC-002']);
    expect(requirementsOf(decisionFindings(failed(0, 'stdio.launch-failed')).findings)).toEqual([undefined]);
    expect(decisionFindings(failed(0, 'stdio.unsolicited-output')).findings[0]?.ambient).toBe(true);
    expect(decisionFindings(failed(0, 'stdio.exit-nonzero')).findings[0]?.ambient).toBeUndefined();
  });

  it('knows every transport failure code the reference harness can report', () => {
    expect(Object.keys(TRANSPORT_CODE_REQUIREMENTS).sort()).toEqual(
      [...TRANSPORT_FAILURE_CODE_LIST].filter((c) => !c.startsWith('auth.')).sort(),
    );
  });
});

describe('error replies', () => {
  it('expects an error with the request id; a result is a finding against the given requirement', () => {
    expect(errorFindings(rpcError(1, -32001), 'AHP-VER-001', 'x')).toEqual({
      findings: [],
      error: { code: -32001, message: 'no' },
    });
    const answered = errorFindings(
      decision(1, []),
      'AHP-VER-001',
      'a request with protocolVersion "1900-01-01"',
    );
    expect(answered.findings).toEqual([
      {
        requirement: 'AHP-VER-001',
        step: 2,
        message:
          'a request with protocolVersion "1900-01-01" was answered with a result instead of a JSON-RPC error',
        stage: 'outcome',
      },
    ]);
    const wrongId = replied(1, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'no' } });
    expect(requirementsOf(errorFindings(wrongId, 'AHP-VER-001', 'x').findings)).toEqual(['AHP-RPC-001']);
  });
});

describe('silence after a notification', () => {
  it('per_event: no output and any exit is silence; any output is an answer; a process that never exits is a lifecycle failure', () => {
    expect(silenceFindings(notified(1, 'request', failed(1, 'stdio.no-reply').reply))).toEqual([]);
    expect(silenceFindings(notified(1, 'request', failed(1, 'stdio.exit-nonzero').reply))).toEqual([]);
    expect(requirementsOf(silenceFindings(notified(1, 'request', decision(1, []).reply)))).toEqual([
      'AHP-RPC-002',
    ]);
    expect(
      requirementsOf(
        silenceFindings(notified(1, 'request', failed(1, 'stdio.exit-nonzero', 'd', '{}').reply)),
      ),
    ).toEqual(['AHP-RPC-002']);
    expect(requirementsOf(silenceFindings(notified(1, 'request', failed(1, 'deadline').reply)))).toEqual([
      'AHP-STDIO-001',
    ]);
  });

  it('persistent stdio: any frame read after the notification is an answer', () => {
    expect(silenceFindings(notified(1, 'notify', { ok: true }))).toEqual([]);
    expect(requirementsOf(silenceFindings(notified(1, 'notify', { ok: true }, ['{"id":null}'])))).toEqual([
      'AHP-RPC-002',
    ]);
  });

  it('HTTP: a status or a body breaks the binding; a JSON-RPC response body is also an answer', () => {
    const body = {
      ok: false,
      failure: { failureClass: 'malformed', code: 'http.notify-body', detail: '202 with body' },
    } as const;
    expect(requirementsOf(silenceFindings(notified(1, 'notify', body, ['{"accepted":true}'])))).toEqual([
      'AHP-HTTP-001',
    ]);
    expect(
      requirementsOf(
        silenceFindings(notified(1, 'notify', body, ['{"jsonrpc":"2.0","id":null,"result":{}}'])),
      ),
    ).toEqual(['AHP-HTTP-001', 'AHP-RPC-002']);
  });
});
