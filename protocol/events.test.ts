import { describe, expect, it } from 'vitest';
import {
  ALL_EVENTS,
  EVENT_EFFECT_BOUNDS,
  EVENT_FAMILIES,
  INTERCEPTABLE_EVENTS,
  OBSERVATION_ONLY_EVENTS,
  effectBoundsFor,
  eventMatches,
  isAbsoluteUri,
  isEventWildcard,
  isReverseDns,
  isRfc3339,
  validateEventEnvelope,
  validateExtensions,
} from './events.js';
import { sampleToolBefore } from './test-samples.js';

describe('event catalogue', () => {
  it('has 19 interceptable and 13 observation-only events, 32 distinct in all', () => {
    expect(INTERCEPTABLE_EVENTS).toHaveLength(19);
    expect(OBSERVATION_ONLY_EVENTS).toHaveLength(13);
    expect(new Set(ALL_EVENTS).size).toBe(32);
  });

  it('has a bounds row for every interceptable event and none for observation-only ones', () => {
    expect(Object.keys(EVENT_EFFECT_BOUNDS).sort()).toEqual([...INTERCEPTABLE_EVENTS].sort());
    for (const e of OBSERVATION_ONLY_EVENTS) expect(effectBoundsFor(e)).toBeUndefined();
  });

  it('lists modify and flow exactly when the row has targets or operations', () => {
    for (const [event, b] of Object.entries(EVENT_EFFECT_BOUNDS)) {
      expect(b.effects.includes('modify'), event).toBe(b.modifyTargets.length > 0);
      expect(b.effects.includes('flow'), event).toBe(b.flowOperations.length > 0);
    }
  });

  it('encodes the boundary rules of §2.4', () => {
    const withReturn = INTERCEPTABLE_EVENTS.filter((e) => EVENT_EFFECT_BOUNDS[e].effects.includes('return'));
    expect(withReturn.sort()).toEqual(
      ['context.compact.before', 'model.request.before', 'tool.before', 'user.elicitation.request'].sort(),
    );
    const withContinue = INTERCEPTABLE_EVENTS.filter((e) =>
      EVENT_EFFECT_BOUNDS[e].flowOperations.includes('continue'),
    );
    expect(withContinue.sort()).toEqual(['tool.after', 'turn.finish.before']);
    expect(EVENT_EFFECT_BOUNDS['tool.before'].modifyTargets).toEqual(['input']);
    expect(EVENT_EFFECT_BOUNDS['tool.before'].effects).toContain('deny');
    expect(EVENT_EFFECT_BOUNDS['user.elicitation.result'].effects).not.toContain('deny');
    expect(EVENT_EFFECT_BOUNDS['model.response.after'].modifyTargets).toEqual(['response']);
  });

  it('knows the event families', () => {
    expect(EVENT_FAMILIES).toEqual(
      expect.arrayContaining(['tool', 'session', 'model', 'user', 'hook', 'file', 'workspace', 'task']),
    );
  });
});

describe('eventMatches', () => {
  it('matches exact names, whole families and everything', () => {
    expect(eventMatches('tool.before', 'tool.before')).toBe(true);
    expect(eventMatches('tool.before', 'tool.after')).toBe(false);
    expect(eventMatches('tool.*', 'tool.permission.request')).toBe(true);
    expect(eventMatches('tool.*', 'turn.start')).toBe(false);
    expect(eventMatches('*', 'hook.failure')).toBe(true);
  });

  it('does not treat a prefix without the dot as a family', () => {
    expect(eventMatches('to.*', 'tool.before')).toBe(false);
    expect(eventMatches('model.*', 'modelx.start')).toBe(false);
  });

  it('treats malformed patterns as literal names that match nothing real', () => {
    expect(isEventWildcard('tool.permission.*')).toBe(false);
    expect(eventMatches('tool.permission.*', 'tool.permission.request')).toBe(false);
    expect(eventMatches('*.before', 'tool.before')).toBe(false);
    expect(isEventWildcard('Tool.*')).toBe(false);
  });
});

describe('scalar checks', () => {
  it('accepts RFC 3339 date-times and rejects compact or partial forms', () => {
    for (const ok of ['2026-08-24T08:51:14Z', '2026-08-24t08:51:14.123+05:30', '2026-02-28T23:59:60-00:00']) {
      expect(isRfc3339(ok), ok).toBe(true);
    }
    for (const bad of [
      '20260915T120000+0000',
      '2026-08-24 08:51:14Z',
      '2026-08-24T08:51:14',
      '2026-13-01T00:00:00Z',
      '2026-08-24',
    ]) {
      expect(isRfc3339(bad), bad).toBe(false);
    }
  });

  it('accepts absolute URIs and rejects relative or broken ones', () => {
    expect(isAbsoluteUri('urn:uuid:5b7de29e-a9e0-41a8-bf26-d94b05f0656d')).toBe(true);
    expect(isAbsoluteUri('https://harness.example/runtime/42')).toBe(true);
    expect(isAbsoluteUri('/relative/path')).toBe(false);
    expect(isAbsoluteUri('https://bad host/x')).toBe(false);
    expect(isAbsoluteUri('')).toBe(false);
  });

  it('recognizes reverse-DNS names', () => {
    expect(isReverseDns('com.example.policy')).toBe(true);
    expect(isReverseDns('org.w3c.trace_context')).toBe(true);
    expect(isReverseDns('policy')).toBe(false);
    expect(isReverseDns('com..example')).toBe(false);
    expect(isReverseDns('1com.example')).toBe(false);
  });

  it('flags extension keys that are not reverse-DNS (AHP-EXT-001)', () => {
    expect(validateExtensions({ 'com.example.a': 1 }, '$.extensions')).toEqual([]);
    expect(validateExtensions({ trace: 1 }, '$.extensions')).toEqual([
      { path: '$.extensions.trace', message: expect.any(String), requirement: 'AHP-EXT-001' },
    ]);
    expect(validateExtensions([], '$.x')).toHaveLength(1);
  });
});

describe('validateEventEnvelope', () => {
  it('accepts a valid event', () => {
    expect(validateEventEnvelope(sampleToolBefore())).toEqual([]);
  });

  it('reports every broken common field at once', () => {
    const event = {
      ...sampleToolBefore(),
      id: '',
      source: 'not a uri',
      type: 'tool.maybe',
      time: '2026-01-02',
      parentEventId: '',
      synthesized: 'yes',
      gaps: [{ path: 'x' }],
      session: { cwd: 1 },
    };
    expect(validateEventEnvelope(event).map((v) => v.path)).toEqual([
      '$.id',
      '$.source',
      '$.type',
      '$.time',
      '$.parentEventId',
      '$.synthesized',
      '$.gaps[0]',
      '$.session.id',
      '$.session.cwd',
    ]);
  });

  it('uses the requirement it is given', () => {
    expect(validateEventEnvelope('x', '$.e', 'AHP-TB-001')).toEqual([
      { path: '$.e', message: expect.any(String), requirement: 'AHP-TB-001' },
    ]);
  });
});
