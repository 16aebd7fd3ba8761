import { describe, expect, it } from 'vitest';
import type { InvokeResult } from '../driver/index.js';
import { chainBackends, chainPlan, judgeChain, type ChainObservation } from './chain.js';
import type { LifecycleScenario } from './format.js';

const sub = (
  id: string,
  backend: string,
  mode = 'intercept',
  failurePolicy = 'fail-open',
  content = 'metadata',
) => ({
  id,
  backend,
  mode,
  failurePolicy,
  content,
});

const event = (value: string) => ({
  id: 'x',
  type: 'tool.before',
  call: { id: 'c' },
  tool: { name: 'task', kind: 'task', input: { value } },
  items: [{ id: 'item', kind: 'text', selection: 'metadata' }],
});

/** A fail-open chain: a fails (an unadvertised return), b edits and denies, c only observes. */
const SCENARIO: LifecycleScenario = {
  id: 'chain',
  chain: {
    subscriptions: [
      sub('a', 'shared'),
      sub('b', 'b', 'intercept', 'fail-open', 'omit'),
      sub('c', 'c'),
      sub('audit', 'shared', 'observe'),
    ],
    interrupt: false,
    holdObservers: false,
  },
  requests: { a: { params: { event: event('original'), capabilities: { effects: ['deny', 'modify'] } } } },
  responses: {},
  responseSequences: {
    a: [
      { result: { effects: [{ type: 'return', value: 1 }] } },
      { result: { effects: [{ type: 'deny', reason: 'policy' }] } },
    ],
  },
  steps: [],
  expected: {
    called: ['a', 'b'],
    failures: ['a'],
    observations: ['c', 'audit'],
    input: { value: 'settled' },
  },
  chainProof: {
    requests: [{ params: { event: event('original') } }, { params: { event: event('original') } }],
    observations: [{ params: { event: event('settled') } }, { params: { event: event('settled') } }],
  },
};

const plan = chainPlan(SCENARIO)!;
const IDS = ['dev.test.1', 'dev.test.2', 'dev.test.3'];

/** What a harness that runs the chain as the scenario says is observed to do. */
function faithful(): ChainObservation {
  return {
    result: {
      decision: 'deny',
      synthetic: false,
      interrupted: false,
      input: { value: 'settled' },
      audit: [
        { backendId: 'dev.test.1', outcome: 'operational-failure', subscriptionIndex: 0 },
        { backendId: 'dev.test.2', outcome: 'deny', subscriptionIndex: 0 },
      ],
    } as InvokeResult,
    backendIds: IDS,
    requests: [
      [{ at: 1, view: { input: { value: 'original' } } }],
      [{ at: 2, view: { input: { value: 'original' } } }],
      [],
    ],
    notifications: [[{ input: { value: 'settled' } }], [], [{ input: { value: 'settled' } }]],
  };
}

describe('chainPlan', () => {
  it("registers the scenario's backends in order, the k-th interceptor asked answering the k-th response", () => {
    expect(plan.backends).toEqual(['shared', 'b', 'c']);
    // The driver's tool.before carries the tool only.
    expect(plan.payload).toEqual({ tool: { name: 'task', input: { value: 'original' }, kind: 'task' } });
    const backends = chainBackends(plan, 500);
    expect(backends.map((b) => b.subscriptions.map((s) => [s.mode, s.content]))).toEqual([
      [
        ['intercept', { default: 'metadata' }],
        ['observe', { default: 'metadata' }],
      ],
      [['intercept', { default: 'omit' }]],
      [['intercept', { default: 'metadata' }]],
    ]);
    expect(backends.map((b) => b.replies[0])).toEqual([
      { kind: 'respond', effects: [{ type: 'return', value: 1 }] },
      { kind: 'respond', effects: [{ type: 'deny', reason: 'policy' }] },
      { kind: 'respond', effects: [] },
    ]);
  });

  it('holds the first answer of an interrupted chain', () => {
    const interrupted = chainPlan({
      ...SCENARIO,
      chain: { ...(SCENARIO.chain as object), interrupt: true },
    })!;
    expect(chainBackends(interrupted, 500)[0]?.replies[0]).toEqual({ kind: 'hang' });
  });
});

describe('judgeChain', () => {
  it('passes a harness that asks, fails, copies and settles as the scenario says', () => {
    expect(judgeChain(plan, faithful())).toEqual([]);
  });

  it('fails a chain that moves on past a fail-closed-like stop or asks out of order', () => {
    const seen = faithful();
    seen.requests[2] = [{ at: 3, view: { input: { value: 'original' } } }];
    seen.notifications[2] = [];
    const messages = judgeChain(plan, seen).map((f) => [f.rule, f.message]);
    expect(messages[0]).toEqual([
      'composition.chain',
      'the interceptors asked were ["a","b","c"] in that order; the scenario asks ["a","b"]',
    ]);
    const reversed = faithful();
    reversed.requests[0] = [{ at: 5, view: { input: { value: 'original' } } }];
    expect(judgeChain(plan, reversed)[0]?.message).toMatch(/\["b","a"\] in that order/);
  });

  it('fails a missing failure, a missing observation, a wrong view and a wrong final input', () => {
    const seen = faithful();
    seen.result = { ...seen.result, audit: [], input: { value: 'original' } };
    seen.notifications[0] = [];
    seen.notifications[2] = [{ input: { value: 'original' } }];
    expect(judgeChain(plan, seen).map((f) => f.message)).toEqual([
      'the driver\'s audit reports [] failed; the scenario has ["a"]',
      'backend dev.test.1 received 0 hooks/observe; the scenario has 1 (["audit"])',
      'the hooks/observe for c carried {"input":{"value":"original"}}; the scenario has {"input":{"value":"settled"}}',
      'the final tool input is {"value":"original"}; the scenario has {"value":"settled"}',
    ]);
  });
});
