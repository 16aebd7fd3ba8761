import { describe, expect, it } from 'vitest';
import { ManualClock } from '../protocol/clock.js';
import type { JsonValue } from '../protocol/json.js';
import { HarnessConfigError, HarnessInputError } from './errors.js';
import { FakeTransport } from './fake-transport.js';
import { createHarnessWith, type InvokeResult } from './harness.js';
import { advanceBy } from './test-clocks.js';
import { optionsFor, registrationOf, steps, toolCall } from './test-support.js';

const A = 'com.example.a';

async function run(invoke: Promise<InvokeResult>, clock: ManualClock, ms = 0): Promise<InvokeResult> {
  await advanceBy(clock, ms);
  return invoke;
}

describe('configuration and input', () => {
  it('rejects an invalid registration with every violation, and builds nothing', () => {
    const reg = registrationOf([{ id: A, subs: [{ mode: 'intercept', policy: 'fail-open' }] }]) as {
      hooks: Array<{ subscriptions: Array<Record<string, JsonValue>> }>;
    };
    delete reg.hooks[0]?.subscriptions[0]?.failurePolicy;
    const err = (() => {
      try {
        createHarnessWith({ registration: reg }, () => {
          throw new Error('must not build');
        });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(HarnessConfigError);
    expect(err).toMatchObject({ code: 'registration-invalid' });
    expect((err as HarnessConfigError).violations.map((v) => v.requirement)).toContain('AHP-FAIL-001');
  });

  it('refuses what it cannot serve, at its path: an event it never raises, a managed scope', () => {
    const observer = { mode: 'observe', content: { default: 'metadata' } };
    const interceptor = {
      events: ['tool.before'],
      mode: 'intercept',
      timeoutMs: 500,
      failurePolicy: 'fail-closed',
      content: { default: 'metadata' },
    };
    const registration = (subscriptions: JsonValue[]) => ({
      protocolVersion: 'draft',
      hooks: [{ id: A, transport: { type: 'http', url: 'http://127.0.0.1:9/' }, subscriptions }],
    });
    const refusal = (subscriptions: JsonValue[]) => {
      try {
        createHarnessWith({ registration: registration(subscriptions) }, () => {
          throw new Error('must not build');
        });
      } catch (e) {
        return e as HarnessConfigError;
      }
      throw new Error('accepted');
    };
    const unraised = refusal([interceptor, { ...observer, events: ['tool.*', 'hook.failure'] }]);
    expect(unraised).toMatchObject({ code: 'registration-unsupported' });
    expect(unraised.violations.map((v) => v.path)).toEqual(['$.hooks[0].subscriptions[1].events[1]']);
    const managed = refusal([{ ...interceptor, scope: 'managed', disableable: false }]);
    expect(managed.violations.map((v) => v.path)).toEqual(['$.hooks[0].subscriptions[0].scope']);
    // What it does raise, and a scope that is no mandatory policy, it serves.
    const served = registration([
      { ...interceptor, scope: 'project' },
      { ...observer, events: ['*'] },
    ]);
    expect(() =>
      createHarnessWith({ registration: served }, () => new FakeTransport(new ManualClock(), steps.none())),
    ).not.toThrow();
  });

  it('rejects bad options and a transport for an unknown backend', () => {
    const clock = new ManualClock();
    const reg = registrationOf([{ id: A, subs: [{ mode: 'intercept', policy: 'fail-open' }] }]);
    const t = new FakeTransport(clock, steps.none());
    const bad = [
      { retries: -1 },
      { retries: 1.5 },
      { observerBoundMs: 0 },
      { source: 'https://user:secret@example.com/' },
      { source: 'not a uri' },
      { advertisedEffects: ['message'] as never },
      { transports: { [A]: t, 'com.example.zzz': t } },
    ];
    for (const extra of bad) {
      expect(
        () => createHarnessWith(optionsFor(clock, reg, { [A]: t }, extra), undefined),
        JSON.stringify(extra),
      ).toThrow(HarnessConfigError);
    }
  });

  it('refuses a backend it cannot build a transport for', () => {
    const reg = registrationOf([{ id: A, subs: [{ mode: 'intercept', policy: 'fail-open' }] }]);
    expect(() => createHarnessWith({ registration: reg }, undefined)).toThrow(/no factory/);
    expect(() =>
      createHarnessWith({ registration: reg }, () => {
        throw new Error('plain http is loopback only');
      }),
    ).toThrow(expect.objectContaining({ code: 'transport-invalid' }));
  });

  it('rejects invalid invoke input locally, sending nothing', async () => {
    const clock = new ManualClock();
    const a = new FakeTransport(clock, steps.none());
    const h = createHarnessWith(
      optionsFor(clock, registrationOf([{ id: A, subs: [{ mode: 'intercept', policy: 'fail-open' }] }]), {
        [A]: a,
      }),
      undefined,
    );
    await expect(
      h.invoke({ ...toolCall(), tool: { name: 'x', input: 'ls' as never } }),
    ).rejects.toBeInstanceOf(HarnessInputError);
    await expect(h.invoke(toolCall(), { budgetMs: -1 })).rejects.toBeInstanceOf(HarnessInputError);
    expect(a.deliveries).toEqual([]);
  });

  it('gives every event a fresh id and the harness source when none is given', async () => {
    const clock = new ManualClock();
    const a = new FakeTransport(clock, steps.none());
    const h = createHarnessWith(
      optionsFor(clock, registrationOf([{ id: A, subs: [{ mode: 'intercept', policy: 'fail-open' }] }]), {
        [A]: a,
      }),
      undefined,
    );
    const { eventId: _e, time: _t, ...input } = toolCall();
    const [r1, r2] = await Promise.all([run(h.invoke(input), clock), run(h.invoke(input), clock)]);
    expect(r1.event.id).not.toBe(r2.event.id);
    expect(r1.event.source).toBe('urn:uuid:00000000-0000-4000-8000-00000000000a');
    expect(r1.event.time).toBe(new Date(clock.wallNow()).toISOString());
  });
});
