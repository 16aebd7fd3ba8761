import fc from 'fast-check';
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
      text: expect.any(String),
      idText: '"evt_new"',
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
    expect(r.ok && r.text).toBe(r.ok && JSON.stringify(r.event));
  });

  it('gives the JSON text of every event it builds, exactly as JSON.stringify writes it', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary', minLength: 1 }),
      fc.constantFrom('evt_1', 'a.b:c+d-e', 'é', '"', '\u2028'),
    );
    // A member's own toJSON gets its key from stringify of the whole event, '' when alone.
    const session = fc.oneof(
      fc.record({ id: text }),
      fc.constant({ id: 's', toJSON: (key: string) => ({ id: `as ${key}` }) }),
      fc.constant({ id: 's', when: new Date(0) }),
    );
    const input = fc.record(
      {
        session,
        call: fc.record({ id: text, synthesized: fc.boolean() }, { requiredKeys: ['id'] }),
        tool: fc.record(
          { name: text, input: fc.dictionary(text, fc.jsonValue({ maxDepth: 2 })), kind: text },
          { requiredKeys: ['name', 'input'] },
        ),
        eventId: text,
        time: fc.constantFrom('2026-01-01T00:00:00Z', '2026-01-01T00:00:00.5+02:00'),
        path: text,
      },
      { requiredKeys: ['call', 'tool'] },
    );
    let built = 0;
    fc.assert(
      fc.property(input, fc.boolean(), fc.uuid(), fc.nat(), (i, harnessLike, uuid, wall) => {
        // As the harness calls it: the source's text made once, plain `evt_<uuid>` ids.
        const r = buildToolBeforeEvent(
          i as unknown as InvokeInput,
          harnessLike
            ? {
                ...defaults,
                sourceText: JSON.stringify(defaults.source),
                newEventId: () => `evt_${uuid}`,
                plainEventIds: true,
                wallNow: () => wall * 1000,
              }
            : defaults,
        );
        if (!r.ok) return;
        built++;
        expect(r.text).toBe(JSON.stringify(r.event));
        expect(r.idText).toBe(JSON.stringify(r.event.id));
      }),
      { numRuns: 500 },
    );
    // Most generated inputs make valid events, so the property is about real texts.
    expect(built).toBeGreaterThan(250);
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
