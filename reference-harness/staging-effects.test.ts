// The draft's composition rules for return, message, flow and inject, one test per rule
// (docs: /work/shared/reference/ahp-protocol.md 6.3 "How decisions combine", 6.5 atomic acceptance).
import { describe, expect, it } from 'vitest';
import type { Effect, EventEnvelope, ToolBeforeEvent } from '../protocol/wire-types.js';
import { initialState, stageEffects, type EffectiveState } from './staging.js';

const event: ToolBeforeEvent = {
  id: 'evt_fx',
  source: 'urn:x',
  type: 'tool.before',
  time: '2026-03-01T00:00:00Z',
  call: { id: 'call_fx' },
  tool: { name: 'Fetch', input: { url: 'https://a.example', depth: { max: 2 } }, origin: 'native' },
  path: 'native',
};
const finish: EventEnvelope = {
  id: 'evt_fin',
  source: 'urn:x',
  type: 'turn.finish.before',
  time: '2026-03-01T00:00:00Z',
  turn: { id: 'turn_1' },
  outcome: 'completed',
  continuationCount: 0,
  items: [],
};
const context = (text: string) => [
  {
    id: `ctx-${text}`,
    role: 'user',
    parts: [{ id: `ctx-${text}-t`, kind: 'text', mediaType: 'text/plain', selection: 'body', text }],
  },
];
const inject = (deliverAt: 'now' | 'next_turn', text: string): Effect => ({
  type: 'inject',
  target: 'context',
  operation: 'append',
  deliverAt,
  value: context(text),
});

/** The state after `effects`, staged one response after another; fails the test on a rejection. */
function after(start: EffectiveState, ...responses: Effect[][]): EffectiveState {
  let state = start;
  for (const effects of responses) {
    const staged = stageEffects(state, effects);
    if (!staged.ok) throw new Error(staged.detail);
    state = staged.state;
  }
  return state;
}

describe('return: the supplied-result candidate', () => {
  it('is kept by later responses that leave the operation as it is', () => {
    const state = after(
      initialState(event),
      [{ type: 'return', value: { pages: 4 } }],
      [],
      [{ type: 'message', text: 'ok' }],
      // A merge of the values already there is no change of the operation.
      [{ type: 'modify', target: 'input', operation: 'merge', value: { url: 'https://a.example' } }],
    );
    expect(state.candidate).toEqual({ value: { pages: 4 } });
  });

  it('is invalidated by a later changed input, and the change is kept', () => {
    const state = after(
      initialState(event),
      [{ type: 'return', value: { pages: 4 } }],
      [{ type: 'modify', target: 'input', operation: 'merge', value: { url: 'https://b.example' } }],
    );
    expect(state.candidate).toBeNull();
    expect((state.event as ToolBeforeEvent).tool.input.url).toBe('https://b.example');
  });

  it('is replaced by a later return, and within one response the last return wins', () => {
    const state = after(
      initialState(event),
      [{ type: 'return', value: 'first' }],
      [
        { type: 'return', value: 'second' },
        { type: 'return', value: 'third' },
      ],
    );
    expect(state.candidate).toEqual({ value: 'third' });
  });

  it('binds to the input modified in the same response, whatever the order of the two', () => {
    const state = after(
      initialState(event),
      [{ type: 'return', value: 'earlier' }],
      [
        { type: 'return', value: 'bound' },
        { type: 'modify', target: 'input', operation: 'replace', value: { url: 'https://c.example' } },
      ],
    );
    expect(state.candidate).toEqual({ value: 'bound' });
  });

  it('keeps a supplied null as a result of null, not as no result', () => {
    expect(after(initialState(event), [{ type: 'return', value: null }]).candidate).toEqual({ value: null });
  });
});

describe('message', () => {
  it('accumulates in order across responses and within one', () => {
    const state = after(
      initialState(event),
      [{ type: 'message', text: 'a' }],
      [
        { type: 'message', text: 'b' },
        { type: 'message', text: 'c' },
      ],
    );
    expect(state.messages).toEqual(['a', 'b', 'c']);
  });
});

describe('flow', () => {
  it('a stop is staged as a stop, not as a deny', () => {
    const staged = stageEffects(initialState(event), [{ type: 'flow', operation: 'stop', reason: 'enough' }]);
    expect(staged).toMatchObject({ ok: true, stop: { reason: 'enough' }, state: { flow: 'stop' } });
    expect(staged.ok && staged.deny).toBeUndefined();
  });

  it('stop beats continue, in either order; the continue instructions are still kept', () => {
    for (const effects of [
      [
        { type: 'flow', operation: 'continue', instruction: 'check' },
        { type: 'flow', operation: 'stop', reason: 'halt' },
      ],
      [
        { type: 'flow', operation: 'stop', reason: 'halt' },
        { type: 'flow', operation: 'continue', instruction: 'check' },
      ],
    ] as Effect[][]) {
      const state = after(initialState(finish), effects);
      expect(state.flow).toBe('stop');
      expect(state.instructions).toEqual(['check']);
    }
  });

  it('repeated continues accumulate their instructions in order as one continue', () => {
    const state = after(
      initialState(finish),
      [
        { type: 'flow', operation: 'continue', instruction: 'one' },
        { type: 'flow', operation: 'continue' },
      ],
      [{ type: 'flow', operation: 'continue', instruction: 'two' }],
    );
    expect(state.flow).toBe('continue');
    expect(state.instructions).toEqual(['one', 'two']);
  });
});

describe('inject', () => {
  it('accumulates accepted injections in order, each as received', () => {
    const first = inject('now', 'a');
    const second = inject('next_turn', 'b');
    const third = inject('now', 'c');
    const state = after(initialState(event), [first, second], [third]);
    expect(state.injections).toEqual([first, second, third]);
  });
});

describe('a rejected response', () => {
  it('publishes nothing of it: no message, candidate, injection or continue', () => {
    const start = after(initialState(event), [{ type: 'message', text: 'kept' }]);
    const staged = stageEffects(start, [
      { type: 'message', text: 'dropped' },
      { type: 'return', value: 1 },
      inject('now', 'dropped'),
      { type: 'modify', target: 'output', operation: 'merge', value: {} },
    ]);
    expect(staged).toMatchObject({ ok: false, code: 'result.effect-inapplicable' });
    expect(start).toEqual({ ...initialState(event), messages: ['kept'] });
  });
});
