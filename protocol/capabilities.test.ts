import { describe, expect, it } from 'vitest';
import {
  advertisesEffect,
  advertisesFlow,
  advertisesInject,
  advertisesModify,
  validateCapabilities,
} from './capabilities.js';
import type { JsonValue } from './json.js';
import type { Capabilities } from './wire-types.js';

const check = (caps: JsonValue, event = 'tool.before') =>
  validateCapabilities(caps, event).map((v) => `${v.requirement} ${v.path}`);

describe('validateCapabilities', () => {
  it('accepts the minimal tool.before advertisement', () => {
    expect(check({ effects: ['deny'] })).toEqual([]);
  });

  it('accepts a full tool.before advertisement with option blocks', () => {
    const caps = {
      effects: ['deny', 'allow', 'ask', 'modify', 'message', 'return', 'flow', 'inject', 'com.example.extra'],
      modify: { input: { replace: false, merge: true } },
      flow: { operations: ['stop'] },
      inject: { context: { append: true, deliverAt: ['now', 'next_turn'] } },
      elicitation: { form: {} },
      unknownButIgnored: 1,
    };
    expect(check(caps)).toEqual([]);
  });

  it('requires effects, and deny at tool.before (AHP-CAP-002)', () => {
    expect(check({})).toEqual(['AHP-CAP-002 $.effects']);
    expect(check({ effects: ['message'] })).toEqual(['AHP-CAP-002 $.effects']);
    expect(check({ effects: [] }, 'session.start')).toEqual([]);
    expect(check('deny')).toEqual(['AHP-CAP-002 $']);
  });

  it('rejects duplicates, non-strings and names that are neither effects nor reverse-DNS', () => {
    expect(check({ effects: ['deny', 'deny', 3, 'teleport'] })).toEqual([
      'AHP-CAP-001 $.effects[1]',
      'AHP-CAP-001 $.effects[2]',
      'AHP-CAP-001 $.effects[3]',
    ]);
  });

  it('rejects effects beyond the per-event bounds', () => {
    expect(check({ effects: ['return'] }, 'task.change.before')).toEqual(['AHP-CAP-001 $.effects[0]']);
    expect(check({ effects: ['deny'] }, 'user.elicitation.result')).toEqual(['AHP-CAP-001 $.effects[0]']);
    expect(check({ effects: ['deny'] }, 'turn.end')).toEqual(['AHP-CAP-001 $']);
  });

  it('rejects a modify target or flow operation the boundary cannot take', () => {
    expect(
      check(
        { effects: ['modify'], modify: { input: { replace: true, merge: false } } },
        'model.response.after',
      ),
    ).toEqual(['AHP-CAP-001 $.modify.input']);
    const continueAtBefore = {
      effects: ['deny', 'flow'],
      flow: { operations: ['continue'], remainingContinuations: 1, continuationCount: 0 },
    };
    expect(check(continueAtBefore)).toEqual(['AHP-CAP-001 $.flow.operations[0]']);
  });

  it('keeps option blocks and effect names consistent in both directions', () => {
    expect(check({ effects: ['deny', 'modify'] })).toEqual(['AHP-CAP-001 $.modify']);
    expect(check({ effects: ['deny'], flow: { operations: ['stop'] } })).toEqual(['AHP-CAP-001 $.flow']);
  });

  it('checks the modify block shape', () => {
    expect(check({ effects: ['deny', 'modify'], modify: {} })).toEqual(['AHP-CAP-001 $.modify']);
    expect(
      check({ effects: ['deny', 'modify'], modify: { input: { replace: false, merge: false } } }),
    ).toEqual(['AHP-CAP-001 $.modify.input']);
    expect(check({ effects: ['deny', 'modify'], modify: { input: { replace: true } } })).toEqual([
      'AHP-CAP-001 $.modify.input',
    ]);
    expect(check({ effects: ['deny', 'modify'], modify: { bogus: { replace: true, merge: true } } })).toEqual(
      ['AHP-CAP-001 $.modify.bogus'],
    );
  });

  it('requires the continuation counters when continue is advertised', () => {
    const base = { effects: ['flow'], flow: { operations: ['stop', 'continue'] } };
    expect(check(base, 'turn.finish.before')).toEqual([
      'AHP-CAP-001 $.flow.remainingContinuations',
      'AHP-CAP-001 $.flow.continuationCount',
    ]);
    const ok = {
      effects: ['flow'],
      flow: { operations: ['continue'], remainingContinuations: 0, continuationCount: 3 },
    };
    expect(check(ok, 'turn.finish.before')).toEqual([]);
    const neg = { effects: ['flow'], flow: { operations: ['stop'], maxContinuations: -1 } };
    expect(check(neg, 'turn.finish.before')).toEqual(['AHP-CAP-001 $.flow.maxContinuations']);
    expect(check({ effects: ['flow'], flow: { operations: [] } }, 'turn.finish.before')).toEqual([
      'AHP-CAP-001 $.flow.operations',
    ]);
  });

  it('checks the inject block shape', () => {
    const bad = [
      { context: { append: false, deliverAt: ['now'] } },
      { context: { append: true, deliverAt: [] } },
      { context: { append: true, deliverAt: ['later'] } },
      { context: { append: true, deliverAt: ['now', 'now'] } },
      {},
    ];
    for (const inject of bad)
      expect(check({ effects: ['deny', 'inject'], inject })).toEqual(['AHP-CAP-001 $.inject']);
  });

  it('uses the given base path', () => {
    expect(validateCapabilities({}, 'tool.before', '$.params.capabilities')[0]?.path).toBe(
      '$.params.capabilities.effects',
    );
  });
});

describe('advertisement lookups', () => {
  const caps: Capabilities = {
    effects: ['deny', 'modify', 'flow', 'inject'],
    modify: { input: { replace: false, merge: true } },
    flow: { operations: ['stop'] },
    inject: { context: { append: true, deliverAt: ['next_turn'] } },
  };

  it('answers from the option blocks', () => {
    expect(advertisesEffect(caps, 'deny')).toBe(true);
    expect(advertisesEffect(caps, 'ask')).toBe(false);
    expect(advertisesModify(caps, 'input', 'merge')).toBe(true);
    expect(advertisesModify(caps, 'input', 'replace')).toBe(false);
    expect(advertisesModify(caps, 'output', 'merge')).toBe(false);
    expect(advertisesFlow(caps, 'stop')).toBe(true);
    expect(advertisesFlow(caps, 'continue')).toBe(false);
    expect(advertisesInject(caps, 'next_turn')).toBe(true);
    expect(advertisesInject(caps, 'now')).toBe(false);
  });

  it('answers false for a malformed advertisement instead of throwing', () => {
    const broken = { effects: 'deny' } as unknown as Capabilities;
    expect(advertisesEffect(broken, 'deny')).toBe(false);
    expect(advertisesModify(broken, 'input', 'merge')).toBe(false);
    expect(advertisesFlow(broken, 'stop')).toBe(false);
    expect(advertisesInject(broken, 'now')).toBe(false);
  });
});
