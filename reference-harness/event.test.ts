import { describe, expect, it } from 'vitest';
import { buildToolBeforeEvent, type InvokeInput } from './event.js';

const defaults = {
  source: 'urn:uuid:00000000-0000-4000-8000-000000000000',
  newEventId: () => 'evt_new',
  wallNow: () => 0,
};

describe('buildToolBeforeEvent', () => {
  it('fills the envelope around the caller input', () => {
    const r = buildToolBeforeEvent(
      {
        session: { id: 's1' },
        call: { id: 'c1' },
        tool: { name: 'Bash', input: { command: 'ls' }, kind: 'shell' },
      },
      defaults,
    );
    expect(r).toEqual({
      ok: true,
      event: {
        id: 'evt_new',
        source: defaults.source,
        type: 'tool.before',
        time: '1970-01-01T00:00:00.000Z',
        session: { id: 's1' },
        call: { id: 'c1' },
        tool: { origin: 'native', name: 'Bash', input: { command: 'ls' }, kind: 'shell' },
        path: 'native',
      },
    });
  });

  it('keeps a given event id and time', () => {
    const r = buildToolBeforeEvent(
      { call: { id: 'c' }, tool: { name: 't', input: {} }, eventId: 'evt_1', time: '2026-01-01T00:00:00Z' },
      defaults,
    );
    expect(r.ok && [r.event.id, r.event.time]).toEqual(['evt_1', '2026-01-01T00:00:00Z']);
  });

  it('rejects input that cannot form a valid tool.before', () => {
    const bad = [
      { call: { id: '' }, tool: { name: 't', input: {} } },
      { call: { id: 'c' }, tool: { name: 't', input: 'ls' } },
      { call: { id: 'c' }, tool: { name: 't', input: {}, callId: 'x' } },
      { call: { id: 'c' }, tool: { name: 't', input: {} }, time: '20260101T000000Z' },
      { call: { id: 'c' }, tool: { name: 't', input: {} }, eventId: 7 },
      { tool: { name: 't', input: {} } },
    ] as unknown as InvokeInput[];
    for (const input of bad) {
      const r = buildToolBeforeEvent(input, defaults);
      expect(r.ok, JSON.stringify(input)).toBe(false);
    }
  });
});
