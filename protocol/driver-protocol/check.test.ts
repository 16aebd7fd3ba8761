import { describe, expect, it } from 'vitest';
import { checkShape } from './check.js';
import { configureResultSchema, invokeResultSchema } from './results.js';
import { invokeParamsEnvelopeSchema, invokeParamsSchema } from './requests.js';
import { featuresSchema } from './results.js';

const problems = (check: ReturnType<typeof checkShape>) => (check.ok ? [] : check.problems);

describe('checkShape', () => {
  it('names each problem by its path from the root, with what was expected, once per field', () => {
    const check = checkShape(
      invokeResultSchema,
      {
        decision: 'allow',
        synthetic: false,
        eventId: [],
        audit: [{ backendId: 'b', outcome: 'deny', attempts: 1.5 }],
      },
      '$.result',
    );
    expect(problems(check)).toEqual([
      { field: '$.result.decision', message: 'must be one of "continue", "deny"' },
      { field: '$.result.interrupted', message: 'is missing' },
      { field: '$.result.eventId', message: 'must be a string' },
      { field: '$.result.audit[0].attempts', message: 'must be a non-negative integer' },
    ]);
  });

  it('returns the value itself on success, unknown members and their order kept', () => {
    const value = { accepted: false, vendor: { x: 1 }, issues: [{ message: 'no', path: '$' }] };
    const check = checkShape(configureResultSchema, value, '$.result');
    expect(check.ok && check.value).toBe(value);
  });

  it('asks a refusal for its issues', () => {
    expect(problems(checkShape(configureResultSchema, { accepted: false }, '$.result'))).toEqual([
      { field: '$.result.issues', message: 'is missing' },
    ]);
    expect(problems(checkShape(configureResultSchema, { accepted: false, issues: [] }, '$.result'))).toEqual([
      { field: '$.result.issues', message: 'must name at least one issue when the registration is refused' },
    ]);
  });

  it('judges of an invoke request only what a driver must: the event id and type, and the options', () => {
    expect(
      checkShape(invokeParamsEnvelopeSchema, { event: { type: 'turn.start', turn: 'anything' } }, 'params')
        .ok,
    ).toBe(true);
    expect(
      problems(
        checkShape(invokeParamsEnvelopeSchema, { event: { type: 'session.end' }, budgetMs: -1 }, 'params'),
      ),
    ).toEqual([
      { field: 'params.event.type', message: 'must name one of the interceptable events in features.events' },
      { field: 'params.budgetMs', message: 'must be a non-negative number of milliseconds' },
    ]);
  });

  describe('v1.3', () => {
    const settled = { decision: 'continue', synthetic: false, interrupted: false, audit: [] };

    it('takes the outcome members, a supplied result of null included, and a stop beside decision continue', () => {
      const value = {
        ...settled,
        executed: false,
        messages: ['one', 'two'],
        input: { q: 1 },
        result: null,
        flow: 'stop',
        continuationInstructions: [],
        continuationRemaining: 2,
        injections: [{ type: 'inject', target: 'context', operation: 'append', deliverAt: 'now', value: [] }],
      };
      const check = checkShape(invokeResultSchema, value, '$.result');
      expect(check.ok && check.value).toBe(value);
    });

    it('names each malformed outcome member', () => {
      const check = checkShape(
        invokeResultSchema,
        {
          ...settled,
          messages: 'one',
          input: [],
          flow: 'deny',
          continuationInstructions: [1],
          continuationRemaining: -1,
          injections: ['x'],
        },
        '$.result',
      );
      expect(problems(check).map((p) => p.field)).toEqual([
        '$.result.messages',
        '$.result.input',
        '$.result.flow',
        '$.result.continuationInstructions[0]',
        '$.result.continuationRemaining',
        '$.result.injections[0]',
      ]);
    });

    it('knows the features outcomes and advertise, and invoke params carrying capabilities', () => {
      expect(problems(checkShape(featuresSchema, { outcomes: 'yes', advertise: 1 }, 'features'))).toEqual([
        { field: 'features.outcomes', message: 'must be true or false' },
        { field: 'features.advertise', message: 'must be true or false' },
      ]);
      const event = { call: { id: 'c' }, tool: { name: 't', input: {} } };
      const caps = { effects: ['deny', 'return'], vendor: { x: 1 } };
      expect(checkShape(invokeParamsSchema, { event, capabilities: caps }, 'params').ok).toBe(true);
      expect(checkShape(invokeParamsEnvelopeSchema, { event, capabilities: caps }, 'params').ok).toBe(true);
      expect(
        problems(checkShape(invokeParamsSchema, { event, capabilities: { effects: 'deny' } }, 'params')),
      ).toEqual([{ field: 'params.capabilities.effects', message: 'must be an array' }]);
      expect(problems(checkShape(invokeParamsSchema, { event, capabilities: [] }, 'params'))).toEqual([
        { field: 'params.capabilities', message: 'must be an object' },
      ]);
    });
  });
});
