import { describe, expect, it } from 'vitest';
import { validateRegistration, type Registration } from '../protocol/registration.js';
import { planDispatch } from './dispatch.js';

const content = { default: 'omit' };
const icp = (events: string[], extra: object = {}) => ({
  events,
  mode: 'intercept',
  timeoutMs: 100,
  failurePolicy: 'fail-open',
  content,
  ...extra,
});
const obs = (events: string[]) => ({ events, mode: 'observe', content });
const stdio = { type: 'stdio', command: 'x', lifecycle: 'persistent' };

function registration(doc: object): Registration {
  const r = validateRegistration(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.violations));
  return r.registration;
}

describe('planDispatch', () => {
  const reg = registration({
    protocolVersion: 'draft',
    hooks: [
      {
        id: 'com.example.a',
        transport: stdio,
        subscriptions: [icp(['tool.*'], { id: 'first' }), obs(['tool.before']), icp(['session.start'])],
      },
      {
        id: 'com.example.b',
        transport: stdio,
        subscriptions: [obs(['*']), icp(['*']), icp(['tool.before'])],
      },
      { id: 'com.example.c', transport: stdio, subscriptions: [obs(['tool.after']), icp(['turn.*'])] },
    ],
  });

  it('keeps matching interceptors in hooks order, then subscription order, and splits observers', () => {
    const plan = planDispatch(reg, 'tool.before');
    expect(plan.intercepts.map((p) => [p.ref.backendId, p.ref.subscriptionIndex])).toEqual([
      ['com.example.a', 0],
      ['com.example.b', 1],
      ['com.example.b', 2],
    ]);
    expect(plan.observers.map((p) => [p.ref.backendId, p.ref.subscriptionIndex])).toEqual([
      ['com.example.a', 1],
      ['com.example.b', 0],
    ]);
    expect(plan.intercepts[0]?.ref).toEqual({
      backendId: 'com.example.a',
      hookIndex: 0,
      subscriptionIndex: 0,
      subscriptionId: 'first',
    });
  });

  it('selects nothing for an event no subscription names', () => {
    const only = registration({
      protocolVersion: 'draft',
      hooks: [
        {
          id: 'com.example.c',
          transport: stdio,
          subscriptions: [icp(['session.start']), obs(['tool.after'])],
        },
      ],
    });
    expect(planDispatch(only, 'tool.before')).toEqual({ intercepts: [], observers: [] });
  });

  it('never lets a family wildcard match another family that shares a prefix', () => {
    const plan = planDispatch(reg, 'turn.start');
    expect(plan.intercepts.map((p) => p.ref.backendId)).toEqual(['com.example.b', 'com.example.c']);
    expect(planDispatch(reg, 'toolx.before').intercepts.map((p) => p.ref.backendId)).toEqual([
      'com.example.b',
    ]);
  });
});
