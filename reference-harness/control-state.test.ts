import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../protocol/wire-types.js';
import { controlState } from './control-state.js';
import { initialState } from './staging.js';

const event: EventEnvelope = {
  id: 'e',
  source: 'urn:x',
  type: 'turn.finish.before',
  time: '2026-01-01T00:00:00Z',
};

describe('controlState', () => {
  it('always carries the permission and the candidate (null when none), never its provenance', () => {
    expect(controlState(initialState(event), { effects: ['message'] })).toEqual({
      permission: 'none',
      candidate: null,
    });
    const state = { ...initialState(event), permission: 'ask' as const, candidate: { value: 0 } };
    expect(controlState(state, { effects: ['deny'] })).toEqual({
      permission: 'ask',
      candidate: { value: 0 },
    });
  });

  it('adds the flow outcome where flow is offered, the instructions where continue is, the injections where inject is', () => {
    const state = { ...initialState(event), flow: 'continue' as const, instructions: ['go'] };
    expect(controlState(state, { effects: ['flow'], flow: { operations: ['stop'] } })).toEqual({
      permission: 'none',
      candidate: null,
      flow: 'continue',
    });
    expect(
      controlState(state, {
        effects: ['flow', 'inject'],
        flow: { operations: ['stop', 'continue'], remainingContinuations: 1, continuationCount: 0 },
        inject: { context: { append: true, deliverAt: ['now'] } },
      }),
    ).toEqual({
      permission: 'none',
      candidate: null,
      flow: 'continue',
      instructions: ['go'],
      injections: [],
    });
  });
});
