import { describe, expect, it } from 'vitest';
import type { Effect, ToolBeforeEvent } from '../protocol/wire-types.js';
import { initialState, stageEffects, type EffectiveState } from './staging.js';

const event: ToolBeforeEvent = {
  id: 'e',
  source: 'urn:x',
  type: 'tool.before',
  time: '2026-01-01T00:00:00Z',
  call: { id: 'c' },
  tool: { name: 'Bash', input: { command: 'rm -rf /', cwd: '/', env: { A: '1' } }, origin: 'native' },
  path: 'native',
};
const base: EffectiveState = { ...initialState(event), messages: ['earlier'] };

describe('stageEffects', () => {
  it('leaves the state untouched for []', () => {
    const r = stageEffects(base, []);
    expect(r).toEqual({ ok: true, state: base });
  });

  it('stages a deny with its reason and code, without mutating the input state', () => {
    const r = stageEffects(base, [
      { type: 'message', text: 'blocked' },
      { type: 'deny', reason: 'policy says no', code: 'org.example.no' },
      { type: 'deny', reason: 'second' },
    ]);
    expect(r).toEqual({
      ok: true,
      state: { ...base, messages: ['earlier', 'blocked'] },
      deny: { reason: 'policy says no', code: 'org.example.no' },
    });
    expect(base.messages).toEqual(['earlier']);
  });

  it('refuses a modify of a target the event does not carry (the tool input at turn.start)', () => {
    const turn = {
      id: 'e2',
      source: 'urn:x',
      type: 'turn.start',
      time: '2026-01-01T00:00:00Z',
      turn: { id: 't' },
    };
    const staged = stageEffects(initialState(turn), [
      { type: 'modify', target: 'input', operation: 'merge', value: { command: 'ls' } },
    ]);
    expect(staged).toMatchObject({ ok: false, code: 'result.effect-inapplicable' });
    const message = stageEffects(initialState(turn), [{ type: 'message', text: 'hi' }]);
    expect(message.ok && message.state).toEqual({ ...initialState(turn), messages: ['hi'] });
  });

  it('merges shallowly and replaces whole, keeping null as a value', () => {
    const merged = stageEffects(base, [
      { type: 'modify', target: 'input', operation: 'merge', value: { command: 'ls', env: null } },
    ]);
    expect(merged.ok && (merged.state.event as ToolBeforeEvent).tool.input).toEqual({
      command: 'ls',
      cwd: '/',
      env: null,
    });
    const replaced = stageEffects(base, [
      { type: 'modify', target: 'input', operation: 'replace', value: { command: 'ls' } },
    ]);
    expect(replaced.ok && (replaced.state.event as ToolBeforeEvent).tool.input).toEqual({ command: 'ls' });
    expect(event.tool.input.command).toBe('rm -rf /');
  });

  it('keeps ask over a later allow, and a changed input voids an earlier allow', () => {
    const ask = stageEffects(base, [{ type: 'ask' }, { type: 'allow' }]);
    expect(ask.ok && ask.state.permission).toBe('ask');
    const allowed = stageEffects(base, [{ type: 'allow' }]);
    if (!allowed.ok) throw new Error('expected ok');
    expect(allowed.state.permission).toBe('allow');
    const changed = stageEffects(allowed.state, [
      { type: 'modify', target: 'input', operation: 'merge', value: { a: 1 } },
    ]);
    expect(changed.ok && changed.state.permission).toBe('none');
    const sameResponse = stageEffects(base, [
      { type: 'allow' },
      { type: 'modify', target: 'input', operation: 'merge', value: {} },
    ]);
    expect(sameResponse.ok && sameResponse.state.permission).toBe('allow');
  });

  it('stages a flow stop with its reason, as a flow outcome and not as a deny', () => {
    const r = stageEffects(base, [
      { type: 'message', text: 'done' },
      { type: 'flow', operation: 'stop', reason: 'The task is done.' },
    ]);
    expect(r).toEqual({
      ok: true,
      state: { ...base, messages: ['earlier', 'done'], flow: 'stop' },
      stop: { reason: 'The task is done.' },
    });
  });

  it('rejects the whole response when any member cannot be applied here, a valid deny included', () => {
    const r = stageEffects(base, [
      { type: 'deny', reason: 'x' },
      { type: 'modify', target: 'output', operation: 'merge', value: {} },
    ] as Effect[]);
    expect(r).toMatchObject({ ok: false, code: 'result.effect-inapplicable' });
    const bad = stageEffects(base, [{ type: 'modify', target: 'workspace', operation: 'merge', value: {} }]);
    expect(bad.ok).toBe(false);
  });
});

describe('stageEffects on content', () => {
  const part = (id: string, t: string) => ({
    id,
    kind: 'text',
    mediaType: 'text/plain',
    selection: 'body',
    text: t,
  });
  const inbound = {
    id: 'e3',
    source: 'urn:x',
    type: 'user.message.inbound',
    time: '2026-01-01T00:00:00Z',
    message: {
      channel: 'chat',
      sender: 'u',
      messages: [{ id: 'm1', role: 'user', parts: [part('p1', 'hi')] }],
    },
  };
  const state: EffectiveState = initialState(inbound);

  it('applies edits in order, each over the one before', () => {
    const staged = stageEffects(state, [
      {
        type: 'modify',
        target: 'prompt',
        operation: 'replace',
        value: [{ id: 'm2', role: 'user', parts: [part('p2', 'a')] }],
      },
      {
        type: 'modify',
        target: 'prompt',
        operation: 'merge',
        value: [{ id: 'm3', role: 'user', parts: [part('p3', 'b')] }],
      },
    ]);
    const messages = staged.ok && (staged.state.event as typeof inbound).message.messages;
    expect(messages && messages.map((m) => m.id)).toEqual(['m2', 'm3']);
    expect(inbound.message.messages.map((m) => m.id)).toEqual(['m1']);
  });

  it("refuses an edit whose result breaks the event schema (an inbound message is the user's)", () => {
    const staged = stageEffects(state, [
      {
        type: 'modify',
        target: 'prompt',
        operation: 'merge',
        value: [{ id: 'm2', role: 'assistant', parts: [part('p2', 'a')] }],
      },
    ]);
    expect(staged).toMatchObject({ ok: false, code: 'result.effect-inapplicable' });
  });
});
