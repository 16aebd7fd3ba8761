import { describe, expect, it } from 'vitest';
import type { CatalogueScenario } from './format.js';
import { notificationFindings, notificationNotRun, notificationPlan } from './notification.js';

function scenario(events: object[], op = 'notify'): CatalogueScenario {
  return {
    id: 's',
    category: 'execution',
    steps: events.map((event) => ({
      op,
      message: { jsonrpc: '2.0', method: 'hooks/observe', params: { protocolVersion: 'draft', event } },
    })) as CatalogueScenario['steps'],
    expected: {},
    requests: {},
    responses: {},
  };
}

const COMPACT = {
  id: 'e',
  source: 'urn:x',
  time: '2026-01-01T00:00:00Z',
  type: 'context.compact.before',
  trigger: 'auto',
  items: [],
};

describe('notificationNotRun', () => {
  it('keeps the receiver half and what no driver call raises, and runs a single interceptable event', () => {
    expect(notificationNotRun(scenario([COMPACT], 'rawNotify'))).toMatch(/the receiver half/);
    expect(notificationNotRun(scenario([COMPACT, COMPACT]))).toMatch(/a sequence whose lineage/);
    expect(notificationNotRun(scenario([{ ...COMPACT, type: 'turn.end' }]))).toBe(
      'turn.end is observation-only, and the driver protocol raises only interceptable events, so no driver call makes the harness send it',
    );
    expect(notificationNotRun(scenario([{ ...COMPACT, parentEventId: 'p' }]))).toMatch(/lineage member/);
    expect(notificationNotRun(scenario([COMPACT]))).toBeUndefined();
  });
});

describe('notificationPlan and notificationFindings', () => {
  const plan = notificationPlan(scenario([{ ...COMPACT, call: { id: 'c' } }]))!;

  it('hands in the payload without the identities, which the run gives its own values', () => {
    expect(plan).toEqual({
      id: 's',
      eventType: 'context.compact.before',
      payload: { trigger: 'auto', items: [] },
      identities: ['call'],
    });
  });

  it('passes a notification that carries the payload unchanged and fails a changed, missing or repeated one', () => {
    const sent = {
      id: 'other',
      source: 'urn:host',
      type: 'context.compact.before',
      trigger: 'auto',
      items: [{ id: 'x' }],
    };
    expect(notificationFindings(plan, [sent])).toEqual([]);
    expect(notificationFindings(plan, [{ ...sent, trigger: 'manual' }])[0]?.message).toBe(
      'the hooks/observe of context.compact.before changed trigger from what the call handed in',
    );
    expect(notificationFindings(plan, [{ ...sent, type: 'turn.end' }])[0]?.message).toMatch(/changed type/);
    expect(notificationFindings(plan, [])[0]?.message).toMatch(/received 0 hooks\/observe/);
    expect(notificationFindings(plan, [sent, sent])).toHaveLength(1);
  });
});
