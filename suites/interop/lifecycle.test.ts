import { describe, expect, it } from 'vitest';
import type { LifecycleScenario } from './format.js';
import {
  cancelledFindings,
  lifecycleNotRun,
  lifecyclePlan,
  lifecycleReply,
  observerFindings,
  planTransports,
} from './lifecycle.js';

const EFFECTS = [{ type: 'deny', reason: 'blocked' }];

function scenario(steps: object[], expected: object = {}): LifecycleScenario {
  return {
    id: 's',
    requests: {
      a: {
        id: 's:a',
        params: {
          event: { tool: { name: 'task', input: { value: 'original' } } },
          capabilities: { effects: ['deny'] },
        },
      },
    },
    responses: { a: { jsonrpc: '2.0', id: 's:a', result: { protocolVersion: 'draft', effects: EFFECTS } } },
    steps: steps as LifecycleScenario['steps'],
    expected: { states: {}, observations: [], ...expected },
  };
}

const send = { op: 'send', key: 'a', slot: 'a' };
const served = [
  send,
  { op: 'wait', key: 'a', count: 1 },
  { op: 'release', key: 'a' },
  { op: 'receive', slot: 'a' },
  { op: 'accept', key: 'a' },
];

describe('lifecycleNotRun', () => {
  it('keeps a reason for what one driver call cannot show, and none for what it can', () => {
    expect(lifecycleNotRun(scenario([{ op: 'upload' }, send]))).toMatch(/a harness is the sender of uploads/);
    expect(lifecycleNotRun(scenario([send, { op: 'send', key: 'b' }]))).toMatch(/two calls outstanding/);
    expect(lifecycleNotRun(scenario([...served, { op: 'cancel', key: 'a' }]))).toMatch(
      /after its reply was accepted/,
    );
    expect(lifecycleNotRun(scenario([send, { op: 'receive' }, { op: 'cancel', key: 'a' }]))).toMatch(
      /between receiving the reply and accepting it/,
    );
    expect(lifecycleNotRun(scenario(served))).toBeUndefined();
    expect(
      lifecycleNotRun(scenario([send, { op: 'cancel', key: 'a' }, { op: 'release', key: 'a' }])),
    ).toBeUndefined();
  });
});

describe('lifecyclePlan', () => {
  it('turns observe steps into observers and the expected state into the outcome to compare', () => {
    const plan = lifecyclePlan(
      scenario([...served, { op: 'observe', key: 'a', subscription: 'metadata' }], {
        states: { 's:a': { decision: 'deny', executed: false, input: { value: 'original' }, messages: [] } },
        observations: [{ eventId: 's:a', subscription: 'metadata', input: { value: 'original' } }],
      }),
    );
    expect(plan).toMatchObject({
      shape: 'plain',
      observers: ['metadata'],
      observed: [{ value: 'original' }],
    });
    expect(plan?.state?.decision).toBe('deny');
    expect(plan?.payload).toEqual({ tool: { name: 'task', input: { value: 'original' } } });
  });

  it('sends a duplicate reply twice and an unsolicited frame first, on stdio only; holds a cancelled reply', () => {
    const duplicate = lifecyclePlan(
      scenario([...served, { op: 'send', key: 'a', slot: 'duplicate', bypassSDK: true }]),
    )!;
    const reply = lifecycleReply(duplicate, 100);
    expect(reply.kind === 'raw' && reply.chunks.length).toBe(2);
    expect(planTransports(duplicate)).toEqual(['stdio-persistent', 'stdio-per_event']);
    const emit = { op: 'emit', response: { jsonrpc: '2.0', id: 'unknown', result: {} } };
    const unsolicited = lifecyclePlan(scenario([send, emit, { op: 'release', key: 'a' }]))!;
    const first = lifecycleReply(unsolicited, 100);
    expect(first.kind === 'raw' && first.chunks[0]).toEqual({
      text: '{"jsonrpc":"2.0","id":"unknown","result":{}}\n',
    });
    const cancelled = lifecyclePlan(
      scenario([send, { op: 'cancel', key: 'a' }, { op: 'release', key: 'a' }]),
    )!;
    expect(cancelled.shape).toBe('after-cancel');
    expect(lifecycleReply(cancelled, 100)).toMatchObject({ kind: 'delay', ms: 100 });
    expect(planTransports(cancelled)).toContain('http');
  });
});

describe('observerFindings', () => {
  it('fails an observer that got no copy, two, or one with another input', () => {
    const plan = lifecyclePlan(
      scenario([...served, { op: 'observe', key: 'a', subscription: 'metadata' }], {
        observations: [{ subscription: 'metadata', input: { value: 'original' } }],
      }),
    )!;
    expect(observerFindings(plan, [[{ value: 'original' }]])).toEqual([]);
    expect(observerFindings(plan, [[]])[0]?.message).toBe(
      'the metadata observer received 0 hooks/observe; the scenario has 1',
    );
    expect(observerFindings(plan, [[{ value: 'x' }, { value: 'x' }]])).toHaveLength(1);
    expect(observerFindings(plan, [[{ value: 'settled' }]])[0]?.message).toBe(
      `the metadata observer's hooks/observe carried the input {"value":"settled"}; the scenario has {"value":"original"}`,
    );
  });
});

describe('cancelledFindings', () => {
  const plan = { rule: 'interrupt.cancel-ends-the-call' as const };
  it('passes an interrupted call that published nothing, and fails one not interrupted or one that published', () => {
    expect(cancelledFindings(plan, { interrupted: true, messages: [] })).toEqual([]);
    expect(cancelledFindings(plan, { interrupted: false, messages: [] }).map((f) => f.message)).toEqual([
      'the driver did not report the cancelled call interrupted',
    ]);
    expect(cancelledFindings(plan, { interrupted: true, messages: ['late'], result: null })[0]?.message).toBe(
      'the cancelled call published messages ["late"] and the supplied result null; the scenario publishes nothing',
    );
  });
});
