import { describe, expect, it } from 'vitest';
import type { HarnessCase } from './case-model.js';
import {
  caseRegistration,
  CASE_BACKEND_ID,
  MISSING_TOKEN_ENV,
  OBSERVER_BACKEND_ID,
  TOKEN_ENV,
  UNLAUNCHABLE_COMMAND,
} from './registration.js';
import { REQUEST_ID_TEMPLATE } from '../../../mock-backend/index.js';
import { caseScenario } from './scenario.js';

const base: HarnessCase = {
  name: 'AHP-FAIL-001/x',
  requirements: ['AHP-FAIL-001'],
  transport: 'stdio-per_event',
  policy: 'fail-open',
  behaviour: { kind: 'hang' },
  then: [
    { behaviour: { kind: 'respond' }, late: true },
    { behaviour: { kind: 'raw', chunks: [{ text: `id=${REQUEST_ID_TEMPLATE}` }] } },
  ],
};
const inputs = {
  stepIds: [['e1', 'c1'], ['e2', 'c2'], ['e3']],
  timeoutMs: 400,
  lateByMs: 300,
  justLateByMs: 60,
  settleToleranceMs: 3000,
  token: 'tok',
};
const endpoints = {
  stdio: ['node', 'mock.mjs', '--control-url', 'http://127.0.0.1:1/'],
  httpUrl: 'http://127.0.0.1:2/',
  refusedUrl: 'http://127.0.0.1:3/ahp',
};

describe('caseScenario', () => {
  it('answers each step by its identity, late steps delayed past the deadline, raw bytes left for the mock to fill', () => {
    const s = caseScenario(base, inputs);
    expect(s.rules.map((r) => r.match)).toEqual([
      { method: 'hooks/intercept', identity: ['e1', 'c1'] },
      { method: 'hooks/intercept', identity: ['e2', 'c2'] },
      { method: 'hooks/intercept', identity: ['e3'] },
      { method: 'hooks/intercept' },
    ]);
    // A per_event hang is a plain hang: the mock process stays up until the harness kills it.
    expect(s.rules[0]?.behaviour).toEqual({ kind: 'hang' });
    expect(s.rules[1]?.behaviour).toEqual({ kind: 'delay', ms: 700, then: { kind: 'respond' } });
    // The mock fills in the id of the request it answers, whatever id the harness chose.
    expect(s.rules[2]?.behaviour).toEqual({ kind: 'raw', chunks: [{ text: 'id={{request.id}}' }] });
  });

  it('holds a past-tolerance reply past the deadline, the settle tolerance and the late margin', () => {
    const held = caseScenario(
      { ...base, then: [{ behaviour: { kind: 'respond' }, late: 'past-tolerance' }] },
      inputs,
    );
    expect(held.rules[1]?.behaviour).toEqual({
      kind: 'delay',
      ms: 400 + 3000 + 300,
      then: { kind: 'respond' },
    });
  });

  it('answers a request that identifies with no step as the step in progress', () => {
    expect(caseScenario(base, inputs).rules[3]?.behaviour).toEqual({ kind: 'hang' });
    const third = caseScenario(base, { ...inputs, current: 2 });
    expect(third.rules[3]?.behaviour).toEqual({ kind: 'raw', chunks: [{ text: 'id={{request.id}}' }] });
    // The rules before the last keep their places, so the mock's counts stay theirs.
    expect(third.rules.slice(0, 3)).toEqual(caseScenario(base, inputs).rules.slice(0, 3));
  });

  it('puts the observe rule and the required token in place', () => {
    const s = caseScenario(
      {
        ...base,
        transport: 'http',
        auth: 'token',
        observe: { behaviour: { kind: 'http-status', status: 500 } },
      },
      inputs,
    );
    expect(s.rules[0]).toMatchObject({ match: { message: 'notification', method: 'hooks/observe' } });
    expect(s.rules[1]?.behaviour).toEqual({ kind: 'hang' });
    expect(s.http).toEqual({ requireBearer: { token: 'tok' } });
  });
});

describe('caseRegistration', () => {
  it('registers the mock with an explicit policy and deadline', () => {
    const doc = caseRegistration(base, endpoints, 400) as { hooks: Array<Record<string, unknown>> };
    expect(doc.hooks).toEqual([
      {
        id: CASE_BACKEND_ID,
        transport: {
          type: 'stdio',
          command: 'node',
          args: ['mock.mjs', '--control-url', 'http://127.0.0.1:1/'],
          lifecycle: 'per_event',
        },
        subscriptions: [
          {
            events: ['tool.before'],
            mode: 'intercept',
            timeoutMs: 400,
            failurePolicy: 'fail-open',
            content: { default: 'metadata' },
          },
        ],
      },
    ]);
  });

  it('patches, observes, authenticates and points at failing endpoints', () => {
    const doc = caseRegistration(
      {
        ...base,
        transport: 'http',
        endpoint: 'refused',
        auth: 'missing-token',
        subscription: { omit: ['failurePolicy'] },
        observe: { behaviour: { kind: 'silent' } },
      },
      endpoints,
      400,
    ) as {
      hooks: Array<{ id: string; transport: unknown; authentication: unknown; subscriptions: unknown[] }>;
    };
    expect(doc.hooks.map((h) => h.id)).toEqual([CASE_BACKEND_ID, OBSERVER_BACKEND_ID]);
    expect(doc.hooks[0]?.transport).toEqual({ type: 'http', url: 'http://127.0.0.1:3/ahp' });
    expect(doc.hooks[0]?.authentication).toEqual({ type: 'bearer', tokenEnv: MISSING_TOKEN_ENV });
    expect(doc.hooks[0]?.subscriptions[0]).not.toHaveProperty('failurePolicy');
    expect(doc.hooks[1]?.subscriptions[0]).toEqual({
      events: ['tool.before'],
      mode: 'observe',
      content: { default: 'metadata' },
    });
    const stdio = caseRegistration({ ...base, endpoint: 'unlaunchable', auth: 'token' }, endpoints, 400) as {
      hooks: Array<{ transport: { command: string }; authentication: unknown }>;
    };
    expect(stdio.hooks[0]?.transport.command).toBe(UNLAUNCHABLE_COMMAND);
    expect(stdio.hooks[0]?.authentication).toEqual({ type: 'bearer', tokenEnv: TOKEN_ENV });
  });

  it('puts a shared observer on the intercept backend entry, after its intercept subscription', () => {
    const doc = caseRegistration(
      {
        ...base,
        transport: 'stdio-persistent',
        observe: { behaviour: { kind: 'respond' }, entry: 'shared' },
      },
      endpoints,
      400,
    ) as { hooks: Array<{ id: string; subscriptions: Array<{ mode: string }> }> };
    expect(doc.hooks.map((h) => h.id)).toEqual([CASE_BACKEND_ID]);
    expect(doc.hooks[0]?.subscriptions.map((s) => s.mode)).toEqual(['intercept', 'observe']);
  });
});
