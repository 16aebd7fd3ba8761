import { describe, expect, it } from 'vitest';
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
import type { InboundRecord, RecordEntry, Scenario } from './model.js';
import { inboundRecords, violationRecords } from './recording.js';

const inbound = (records: RecordEntry[]) => inboundRecords(records)[0] as InboundRecord;
const violations = (records: RecordEntry[]) => violationRecords(records).map((v) => v.code);

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
      emptyReply('evt_1'),
      emptyReply('evt_1'),
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

  it('plays a sequence by attempt wherever it sits: nested, in a strategy, or behind a rule on attempt', () => {
    // Scenarios that never decide by attempt count after answering; these must count before.
    const frames = ['a', 'a', 'a'].map((id) => frameOf(interceptRequest({ eventId: id })));
    const nested: Scenario = {
      rules: [],
      unmatched: {
        kind: 'delay',
        ms: 0,
        then: { kind: 'sequence', steps: [{ kind: 'rpc-error', code: -32003 }, { kind: 'deny' }] },
      },
    };
    const out = runFrames(nested, frames);
    // The replies themselves: a recording plans again with the counted attempt, so it alone could not tell.
    expect(out.map((r) => (writtenText(r.actions).includes('"type":"deny"') ? 'deny' : 'error'))).toEqual([
      'error',
      'deny',
      'deny',
    ]);
    expect(out.map((r) => inbound(r.records).behaviour)).toEqual([
      { kind: 'delay', ms: 0, then: { kind: 'rpc-error', code: -32003 } },
      { kind: 'delay', ms: 0, then: { kind: 'deny' } },
      { kind: 'delay', ms: 0, then: { kind: 'deny' } },
    ]);
    const byRule: Scenario = { rules: [{ match: { attempt: { min: 2 } }, behaviour: { kind: 'deny' } }] };
    expect(runFrames(byRule, frames).map((r) => inbound(r.records).behaviour.kind)).toEqual([
      'respond',
      'deny',
      'deny',
    ]);
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
    expect(writtenText(dflt.actions)).toBe(emptyReply('evt_1'));
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
    expect(writtenText(mismatch.actions)).toBe(emptyReply('outer'));
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
