import { describe, expect, it } from 'vitest';
import type { LifecycleScenario } from './format.js';
import { lifecycleNotRun } from './lifecycle.js';
import { staleReplyPlan, staleThenLive } from './stale-reply.js';

const STATE = { decision: 'allow', executed: true, input: { value: 'x' }, messages: [] };
const reply = (id: string) => ({ jsonrpc: '2.0', id, result: { protocolVersion: 'draft', effects: [] } });

function scenario(steps: object[]): LifecycleScenario {
  return {
    id: 's',
    requests: {
      a: {
        id: 's:a',
        params: { event: { tool: { name: 'task', input: {} } }, capabilities: { effects: [] } },
      },
    },
    responses: { a: reply('s:a'), b: reply('s:b') },
    steps: steps as LifecycleScenario['steps'],
    expected: { states: { 's:a': STATE, 's:b': STATE } },
  };
}

const inTurn = [
  { op: 'send', key: 'a' },
  { op: 'accept', key: 'a' },
  { op: 'send', key: 'b' },
  { op: 'emit', response: reply('s:a') },
  { op: 'accept', key: 'b' },
];

describe('staleReplyPlan', () => {
  it('runs two calls in turn with a stale frame between them, and not two outstanding at once', () => {
    const plan = staleReplyPlan(scenario(inTurn));
    expect(plan?.states).toHaveLength(2);
    expect(lifecycleNotRun(scenario(inTurn))).toBeUndefined();
    const outstanding = [inTurn[0], inTurn[2], inTurn[3], inTurn[1], inTurn[4]] as object[];
    expect(staleReplyPlan(scenario(outstanding))).toBeUndefined();
  });

  it("writes the stale frame under the first request's id before the live reply", () => {
    const plan = staleReplyPlan(scenario(inTurn))!;
    const behaviour = staleThenLive(plan, 'evt-1');
    expect(behaviour.kind).toBe('raw');
    const chunks = behaviour.kind === 'raw' ? behaviour.chunks : [];
    expect(chunks).toHaveLength(2);
    expect(JSON.parse((chunks[0] as { text: string }).text).id).toBe('evt-1');
  });
});
