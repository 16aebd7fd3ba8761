import { describe, expect, it } from 'vitest';
import { validateCapabilities } from '../protocol/capabilities.js';
import { INTERCEPTABLE_EVENTS } from '../protocol/events.js';
import type { Capabilities } from '../protocol/wire-types.js';
import {
  buildCapabilities,
  capabilitiesForEvent,
  capabilitiesForView,
  checkAdvertisedEffects,
  SUPPORTED_EFFECTS,
  unenforceableCapabilities,
} from './advertised-effects.js';

describe('advertised effects', () => {
  it('accepts deny alone and every supported combination with deny', () => {
    expect(checkAdvertisedEffects(['deny'])).toEqual([]);
    expect(checkAdvertisedEffects([...SUPPORTED_EFFECTS])).toEqual([]);
  });

  it('rejects a missing deny, unknown or unenforceable effects and duplicates', () => {
    expect(checkAdvertisedEffects(['message']).map((v) => v.requirement)).toEqual(['AHP-CAP-002']);
    expect(checkAdvertisedEffects(['deny', 'elicitation'])).toHaveLength(1);
    expect(checkAdvertisedEffects(['deny', 'deny'])).toHaveLength(1);
    expect(checkAdvertisedEffects('deny')).toHaveLength(1);
  });

  it('builds capabilities the protocol validator accepts at tool.before', () => {
    expect(buildCapabilities(['deny'])).toEqual({ effects: ['deny'] });
    const all = buildCapabilities([...SUPPORTED_EFFECTS]);
    expect(all.modify).toEqual({ input: { replace: true, merge: true } });
    expect(validateCapabilities(all as never, 'tool.before')).toEqual([]);
    expect(validateCapabilities(buildCapabilities(['deny', 'message']) as never, 'tool.before')).toEqual([]);
    expect(buildCapabilities(['deny', 'flow'])).toEqual({
      effects: ['deny', 'flow'],
      flow: { operations: ['stop'] },
    });
    expect(validateCapabilities(buildCapabilities(['deny', 'flow']) as never, 'tool.before')).toEqual([]);
  });
});

describe('capabilitiesForEvent', () => {
  it('narrows the advertised effects to the event bounds, modify to the content target it applies', () => {
    const all = ['deny', 'allow', 'ask', 'message', 'modify'] as const;
    expect(capabilitiesForEvent('turn.start', ['deny', 'flow'])).toEqual({
      effects: ['deny', 'flow'],
      flow: { operations: ['stop'] },
    });
    expect(capabilitiesForEvent('session.start', ['deny', 'flow', 'message'])).toEqual({
      effects: ['message'],
    });
    expect(capabilitiesForEvent('tool.before', all)).toEqual(buildCapabilities(all));
    expect(capabilitiesForEvent('tool.permission.request', all)).toEqual({
      effects: ['deny', 'allow', 'message'],
    });
    expect(capabilitiesForEvent('tool.after', all)).toEqual({
      effects: ['message', 'modify'],
      modify: { output: { replace: true, merge: true } },
    });
    expect(capabilitiesForEvent('context.compact.before', all)).toEqual({
      effects: ['deny', 'message', 'modify'],
      modify: { instructions: { replace: true, merge: true } },
    });
    // No content target this harness applies: the workspace, an elicitation answer.
    expect(capabilitiesForEvent('workspace.change.before', all)).toEqual({ effects: ['deny', 'message'] });
    expect(capabilitiesForEvent('user.elicitation.result', all)).toEqual({ effects: ['message'] });
    expect(capabilitiesForEvent('tool.after', ['deny'])).toEqual({ effects: [] });
    expect(capabilitiesForEvent('session.end', all)).toBeUndefined();
  });

  it('never advertises more than the draft bounds for any interceptable event', () => {
    const all = SUPPORTED_EFFECTS;
    for (const type of INTERCEPTABLE_EVENTS) {
      const caps = capabilitiesForEvent(type, all);
      expect(caps).toBeDefined();
      expect(validateCapabilities(caps as never, type)).toEqual([]);
    }
  });
});

describe('capabilitiesForView', () => {
  const caps = capabilitiesForEvent('turn.start', ['deny', 'modify']) as Capabilities;
  const part = (extra: object) => ({ id: 'p', kind: 'text', mediaType: 'text/plain', ...extra });
  const viewWith = (p: object) => ({ type: 'turn.start', items: [{ id: 'm', role: 'user', parts: [p] }] });

  it('keeps a whole-list replace for a view that shows every text inline', () => {
    expect(capabilitiesForView(caps, 'turn.start', viewWith(part({ selection: 'body', text: 'hi' })))).toBe(
      caps,
    );
  });

  it('offers only merge to a view that withholds text or holds a gap', () => {
    for (const hidden of [
      part({ selection: 'metadata' }),
      part({ selection: 'omit' }),
      part({ selection: 'body', gap: { reason: 'unavailable' } }),
      { id: 'a', kind: 'attachment', mediaType: 'image/png', selection: 'body', gap: { reason: 'x' } },
    ]) {
      const narrowed = capabilitiesForView(caps, 'turn.start', viewWith(hidden));
      expect(narrowed).toEqual({
        effects: ['deny', 'modify'],
        modify: { prompt: { replace: false, merge: true } },
      });
      expect(validateCapabilities(narrowed as never, 'turn.start')).toEqual([]);
    }
  });

  it('drops modify when replace was all it offered', () => {
    const replaceOnly: Capabilities = {
      effects: ['deny', 'modify'],
      modify: { prompt: { replace: true, merge: false } },
    };
    expect(capabilitiesForView(replaceOnly, 'turn.start', viewWith(part({ selection: 'omit' })))).toEqual({
      effects: ['deny'],
    });
  });
});

describe("unenforceableCapabilities (a call's own advertisement)", () => {
  const paths = (caps: unknown, type: string) =>
    unenforceableCapabilities(caps as never, type).map((v) => v.path);

  it('takes what the staging code applies: return, inject, flow continue with its allowance', () => {
    expect(
      paths(
        {
          effects: ['deny', 'return', 'inject', 'modify', 'message'],
          modify: { input: { replace: false, merge: true } },
          inject: { context: { append: true, deliverAt: ['next_turn'] } },
        },
        'tool.before',
      ),
    ).toEqual([]);
    expect(
      paths(
        {
          effects: ['flow', 'message'],
          flow: { operations: ['stop', 'continue'], remainingContinuations: 0, continuationCount: 2 },
        },
        'turn.finish.before',
      ),
    ).toEqual([]);
  });

  it('names each member it cannot enforce, or the draft does not allow there', () => {
    expect(paths({ effects: ['message'] }, 'tool.before')).toEqual(['$.capabilities.effects']);
    expect(paths({ effects: ['deny', 'com.example.redact'] }, 'tool.before')).toEqual([
      '$.capabilities.effects[1]',
    ]);
    expect(paths({ effects: ['deny'], 'com.example.x': {} }, 'tool.before')).toEqual([
      '$.capabilities.com.example.x',
    ]);
    // The staging code edits no tool input at tool.permission.request.
    expect(
      paths(
        { effects: ['deny', 'modify'], modify: { input: { replace: true, merge: true } } },
        'tool.permission.request',
      ),
    ).toEqual(['$.capabilities.modify.input']);
    expect(paths({ effects: ['deny', 'return'] }, 'turn.start')).toEqual(['$.capabilities.effects[1]']);
  });
});

describe('return and inject in the default advertisement', () => {
  it('are offered where the event allows them, inject of context now or at the next turn', () => {
    expect(capabilitiesForEvent('tool.before', ['deny', 'return', 'inject'])).toEqual({
      effects: ['deny', 'return', 'inject'],
      inject: { context: { append: true, deliverAt: ['now', 'next_turn'] } },
    });
    expect(capabilitiesForEvent('turn.finish.before', ['deny', 'return', 'inject', 'message'])).toEqual({
      effects: ['message'],
    });
  });
});
