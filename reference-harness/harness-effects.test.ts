// The outcomes of return, message, flow (stop and continue) and inject through the chain, the
// incoming control state each interceptor is sent, and a call's own advertisement.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../protocol/clock.js';
import type { JsonValue } from '../protocol/json.js';
import type { Capabilities } from '../protocol/wire-types.js';
import { HarnessInputError } from './errors.js';
import { FakeTransport } from './fake-transport.js';
import { createHarnessWith, type InvokeOptions } from './harness.js';
import { advanceBy } from './test-clocks.js';
import { optionsFor, registrationOf, steps, toolCall } from './test-support.js';

const A = 'com.example.a';
const B = 'com.example.b';
const C = 'com.example.c';
const TOOL_CAPS: Capabilities = {
  effects: ['deny', 'allow', 'ask', 'message', 'modify', 'return', 'flow', 'inject'],
  modify: { input: { replace: true, merge: true } },
  flow: { operations: ['stop'] },
  inject: { context: { append: true, deliverAt: ['now', 'next_turn'] } },
};
const finishCaps = (remaining: number): Capabilities => ({
  effects: ['flow', 'message'],
  flow: {
    operations: ['stop', 'continue'],
    remainingContinuations: remaining,
    continuationCount: 0,
    maxContinuations: 3,
  },
});
const finishTurn = {
  type: 'turn.finish.before',
  eventId: 'evt_f1',
  time: '2026-01-01T00:00:00Z',
  fields: {
    session: { id: 'sess_1' },
    turn: { id: 'turn_1' },
    outcome: 'completed',
    continuationCount: 0,
    items: [],
  },
};
const cont = (instruction: string) => ({ type: 'flow', operation: 'continue', instruction });
const ctx = (text: string) => ({
  type: 'inject',
  target: 'context',
  operation: 'append',
  deliverAt: 'next_turn',
  value: [
    {
      id: `m-${text}`,
      role: 'user',
      parts: [{ id: `p-${text}`, kind: 'text', mediaType: 'text/plain', selection: 'body', text }],
    },
  ],
});

/** Three fail-open interceptors A, B, C on every event, answering the given effect lists in turn. */
async function run(answers: JsonValue[][], input: unknown = toolCall(), options: InvokeOptions = {}) {
  const clock = new ManualClock();
  const ids = [A, B, C].slice(0, answers.length);
  const transports = Object.fromEntries(
    ids.map((id, i) => [id, new FakeTransport(clock, steps.effects(answers[i] as JsonValue[]))]),
  );
  const reg = registrationOf(
    ids.map((id) => ({ id, subs: [{ mode: 'intercept', policy: 'fail-open', events: ['*'] }] })),
  );
  const h = createHarnessWith(optionsFor(clock, reg, transports), undefined);
  const pending = h.invoke(input as never, options);
  // An input error rejects before the clock moves; it is awaited (and asserted) below.
  pending.catch(() => undefined);
  await advanceBy(clock, 0);
  const r = await pending;
  const sent = ids.map((id) => {
    const frame = (transports[id] as FakeTransport).requestFrames[0];
    return frame === undefined
      ? undefined
      : (JSON.parse(frame) as { params: { state: unknown; capabilities: unknown } }).params;
  });
  return { r, sent };
}

describe('return through the chain', () => {
  it('a supplied result is reported, the tool does not run, and it is not a deny', async () => {
    const { r } = await run([[{ type: 'return', value: { rows: 0 } }], []], toolCall(), {
      capabilities: TOOL_CAPS,
    });
    expect(r).toMatchObject({ decision: 'continue', executed: false, result: { value: { rows: 0 } } });
    expect(r.flow).toBeUndefined();
  });

  it('a supplied null is a result of null', async () => {
    const { r } = await run([[{ type: 'return', value: null }]], toolCall(), { capabilities: TOOL_CAPS });
    expect(r.result).toEqual({ value: null });
    expect(r.executed).toBe(false);
  });

  it('a later changed input invalidates it: the tool runs with the new input, no result', async () => {
    const { r } = await run(
      [
        [{ type: 'return', value: 1 }],
        [{ type: 'modify', target: 'input', operation: 'merge', value: { command: 'ls' } }],
      ],
      toolCall(),
      { capabilities: TOOL_CAPS },
    );
    expect(r.result).toBeUndefined();
    expect(r).toMatchObject({ executed: true, effectiveEvent: { tool: { input: { command: 'ls' } } } });
  });

  it('a later return replaces it', async () => {
    const { r } = await run([[{ type: 'return', value: 1 }], [{ type: 'return', value: 2 }]], toolCall(), {
      capabilities: TOOL_CAPS,
    });
    expect(r.result).toEqual({ value: 2 });
  });

  it('a pending approval or a stop leaves no result in force', async () => {
    const asked = await run([[{ type: 'return', value: 1 }, { type: 'ask' }]], toolCall(), {
      capabilities: TOOL_CAPS,
    });
    expect(asked.r).toMatchObject({ decision: 'continue', finalPermission: 'ask', executed: false });
    expect(asked.r.result).toBeUndefined();
    const stopped = await run(
      [
        [
          { type: 'return', value: 1 },
          { type: 'flow', operation: 'stop', reason: 'halt' },
        ],
      ],
      toolCall(),
      {
        capabilities: TOOL_CAPS,
      },
    );
    expect(stopped.r).toMatchObject({ decision: 'continue', flow: 'stop', executed: false, reason: 'halt' });
    expect(stopped.r.result).toBeUndefined();
  });
});

describe('the incoming control state', () => {
  it('tells each interceptor what was accepted before it: permission, candidate, flow, injections', async () => {
    const { sent } = await run(
      [[{ type: 'allow' }, { type: 'return', value: 'cached' }], [ctx('later')], []],
      toolCall(),
      { capabilities: TOOL_CAPS },
    );
    expect(sent.map((p) => p?.state)).toEqual([
      { permission: 'none', candidate: null, flow: 'none', injections: [] },
      { permission: 'allow', candidate: { value: 'cached' }, flow: 'none', injections: [] },
      { permission: 'allow', candidate: { value: 'cached' }, flow: 'none', injections: [ctx('later')] },
    ]);
  });
});

describe('messages and injections', () => {
  it('accumulate in order across the chain', async () => {
    const { r } = await run(
      [
        [{ type: 'message', text: 'one' }, ctx('a')],
        [ctx('b'), { type: 'message', text: 'two' }],
        [{ type: 'message', text: 'three' }],
      ],
      toolCall(),
      { capabilities: TOOL_CAPS },
    );
    expect(r.messages).toEqual(['one', 'two', 'three']);
    expect(r.injections).toEqual([ctx('a'), ctx('b')]);
    expect(r.executed).toBe(true);
  });
});

describe('flow at turn.finish.before', () => {
  it('continues accumulate their instructions and use one allowance unit for the whole call', async () => {
    const { r, sent } = await run([[cont('one'), cont('two')], [cont('three')]], finishTurn, {
      capabilities: finishCaps(2),
    });
    expect(r).toMatchObject({
      decision: 'continue',
      flow: 'continue',
      executed: false,
      continuationInstructions: ['one', 'two', 'three'],
      continuationRemaining: 1,
    });
    // The call's own advertisement is what every interceptor is offered.
    expect(sent[1]?.capabilities).toEqual(finishCaps(2));
    expect(sent[1]?.state).toEqual({
      permission: 'none',
      candidate: null,
      flow: 'continue',
      instructions: ['one', 'two'],
    });
  });

  it('stop beats continue: the allowance is not used, later interceptors are not asked', async () => {
    const { r, sent } = await run(
      [[cont('one')], [{ type: 'flow', operation: 'stop', reason: 'done' }], []],
      finishTurn,
      {
        capabilities: finishCaps(2),
      },
    );
    expect(r).toMatchObject({
      decision: 'continue',
      flow: 'stop',
      continuationInstructions: ['one'],
      continuationRemaining: 2,
    });
    expect(sent[2]).toBeUndefined();
  });

  it('a continue with no allowance left rejects the whole response: its message is not applied', async () => {
    const { r } = await run(
      [[{ type: 'message', text: 'hidden' }, cont('more')], [{ type: 'message', text: 'shown' }]],
      finishTurn,
      {
        capabilities: finishCaps(0),
      },
    );
    expect(r).toMatchObject({
      decision: 'continue',
      messages: ['shown'],
      continuationInstructions: [],
      continuationRemaining: 0,
    });
    expect(r.flow).toBeUndefined();
    expect(r.audit[0]).toMatchObject({ outcome: 'operational-failure', failureClass: 'invalid-effects' });
  });
});

describe('a rejected response', () => {
  it('applies nothing of it, a valid deny included; the failure policy applies once and the chain goes on', async () => {
    const nowOnly: Capabilities = {
      effects: ['deny', 'inject'],
      inject: { context: { append: true, deliverAt: ['now'] } },
    };
    const { r, sent } = await run([[{ type: 'deny', reason: 'no' }, ctx('later')], []], toolCall(), {
      capabilities: nowOnly,
    });
    expect(r).toMatchObject({ decision: 'continue', executed: true, injections: [] });
    expect(r.audit.map((x) => x.outcome)).toEqual(['operational-failure', 'no-effect']);
    expect(sent[1]?.state).toEqual({ permission: 'none', candidate: null, injections: [] });
  });
});

describe("a call's own advertisement", () => {
  it('is enforced: an effect or a merge it does not offer rejects the response', async () => {
    const noMerge: Capabilities = {
      effects: ['deny', 'modify'],
      modify: { input: { replace: true, merge: false } },
    };
    const { r } = await run(
      [
        [{ type: 'modify', target: 'input', operation: 'merge', value: { command: 'ls' } }],
        [{ type: 'return', value: 1 }],
      ],
      toolCall(),
      { capabilities: noMerge },
    );
    expect(r.audit.map((x) => x.outcome)).toEqual(['operational-failure', 'operational-failure']);
    expect(r).toMatchObject({
      executed: true,
      effectiveEvent: { tool: { input: { command: 'git push --force' } } },
    });
  });

  it('a flow operation it does not offer rejects the response', async () => {
    const continueOnly: Capabilities = {
      ...finishCaps(1),
      flow: { ...finishCaps(1).flow, operations: ['continue'] },
    };
    const { r } = await run(
      [[cont('more'), { type: 'flow', operation: 'stop', reason: 'halt' }]],
      finishTurn,
      {
        capabilities: continueOnly,
      },
    );
    expect(r.flow).toBeUndefined();
    expect(r).toMatchObject({ continuationInstructions: [], continuationRemaining: 1 });
    expect(r.audit[0]).toMatchObject({ outcome: 'operational-failure', failureClass: 'invalid-effects' });
  });

  it('an inject delivery it does not offer rejects the response', async () => {
    const nowOnly: Capabilities = {
      effects: ['deny', 'inject'],
      inject: { context: { append: true, deliverAt: ['now'] } },
    };
    const { r } = await run([[ctx('later')]], toolCall(), { capabilities: nowOnly });
    expect(r.injections).toEqual([]);
    expect(r.audit[0]).toMatchObject({ outcome: 'operational-failure' });
  });

  it('one it cannot enforce is an input error naming the member', async () => {
    const attempt = run([[]], toolCall(), { capabilities: { effects: ['deny', 'com.example.redact'] } });
    await expect(attempt).rejects.toBeInstanceOf(HarnessInputError);
    await expect(attempt).rejects.toMatchObject({ violations: [{ path: '$.capabilities.effects[1]' }] });
  });
});
