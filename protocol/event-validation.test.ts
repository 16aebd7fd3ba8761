import { describe, expect, it } from 'vitest';
import { validateEvent } from './event-validation.js';
import type { JsonObject } from './json.js';
import { sampleMessage, sampleToolAfter, sampleToolBefore } from './test-samples.js';
import { validateItems } from './tool-events.js';

const paths = (vs: { path: string }[]) => vs.map((v) => v.path);
const base = { id: 'e', source: 'urn:x:y', time: '2026-01-01T00:00:00Z' };

describe('validateEvent and validateItems', () => {
  it('dispatches tool events to their deep validators', () => {
    expect(validateEvent({ ...sampleToolBefore(), outcome: 'ok' })[0]?.requirement).toBe('AHP-TB-001');
    expect(paths(validateEvent({ ...sampleToolAfter(), outcome: 'nope' }))).toEqual(['$.outcome']);
  });

  it('checks the required payload of other events and rejects tool identity on them', () => {
    expect(paths(validateEvent({ ...base, type: 'session.end', session: { id: 's' }, reason: 'r' }))).toEqual(
      ['$.outcome'],
    );
    expect(
      paths(
        validateEvent({
          ...base,
          type: 'session.end',
          session: { id: 's' },
          reason: 'r',
          outcome: 'timed_out',
        }),
      ),
    ).toEqual(['$.outcome']);
    expect(
      paths(validateEvent({ ...base, type: 'turn.start', turn: { id: 't' }, trigger: 'user', items: [] })),
    ).toEqual([]);
    expect(paths(validateEvent({ ...base, type: 'task.change.after', task: {} }))).toEqual(['$.task']);
    const withTool = { ...base, type: 'config.change.before', change: {}, tool: { name: 'x' } };
    expect(paths(validateEvent(withTool))).toEqual(['$.tool']);
    expect(paths(validateEvent({ ...base, type: 'unknown.event' }))).toEqual(['$.type']);
  });

  it('validates items as messages or bare parts', () => {
    expect(
      validateItems(
        [sampleMessage(), { id: 'f', kind: 'text', mediaType: 'text/plain', selection: 'omit' }],
        '$',
      ),
    ).toEqual([]);
    const { role: _r, ...noRole } = sampleMessage();
    expect(paths(validateItems([noRole], '$'))).toEqual(['$[0].role']);
    expect(paths(validateItems({}, '$'))).toEqual(['$']);
  });
});

describe('user.message events', () => {
  const event = (type: string, role: string): JsonObject => ({
    ...base,
    type,
    message: { channel: 'chat', sender: 'u1', messages: [sampleMessage(role)] },
  });

  it('accepts user messages inbound and assistant messages outbound', () => {
    expect(validateEvent(event('user.message.inbound', 'user'))).toEqual([]);
    expect(validateEvent(event('user.message.outbound', 'assistant'))).toEqual([]);
  });

  it('rejects the other role in each direction (AHP-CONTENT-001)', () => {
    expect(validateEvent(event('user.message.inbound', 'assistant'))).toEqual([
      { path: '$.message.messages[0].role', message: expect.any(String), requirement: 'AHP-CONTENT-001' },
    ]);
    expect(paths(validateEvent(event('user.message.outbound', 'user')))).toEqual([
      '$.message.messages[0].role',
    ]);
  });

  it('requires a channel and canonical messages', () => {
    const e = { ...base, type: 'user.message.inbound', message: { messages: [{ id: 'm', role: 'user' }] } };
    expect(paths(validateEvent(e))).toEqual(['$.message.channel', '$.message.messages[0].parts']);
  });
});
