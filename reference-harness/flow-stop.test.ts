import { describe, expect, it } from 'vitest';
import { ManualClock } from '../protocol/clock.js';
import { FakeTransport } from './fake-transport.js';
import { createHarnessWith, type InvokeResult } from './harness.js';
import { advanceBy } from './test-clocks.js';
import { optionsFor, registrationOf, steps, toolCall } from './test-support.js';

const A = 'com.example.a';
const B = 'com.example.b';
const C = 'com.example.c';
const STOP = { type: 'flow', operation: 'stop', reason: 'The task is done.' };

async function settle(invoke: Promise<InvokeResult>, clock: ManualClock): Promise<InvokeResult> {
  await advanceBy(clock, 0);
  return invoke;
}

function chain(clock: ManualClock, second: FakeTransport) {
  const a = new FakeTransport(clock, steps.none());
  const c = new FakeTransport(clock, steps.none());
  const reg = registrationOf(
    [A, B, C].map((id) => ({ id, subs: [{ mode: 'intercept', policy: 'fail-open' }] })),
  );
  return { a, c, reg, transports: { [A]: a, [B]: second, [C]: c } };
}

describe('flow stop at tool.before', () => {
  it('is advertised with its one operation, and an accepted stop ends decision-making', async () => {
    const clock = new ManualClock();
    const b = new FakeTransport(clock, steps.effects([STOP]));
    const { c, reg, transports } = chain(clock, b);
    const h = createHarnessWith(
      optionsFor(clock, reg, transports, { advertisedEffects: ['deny', 'flow'] }),
      undefined,
    );
    const r = await settle(h.invoke(toolCall()), clock);
    const request = JSON.parse(b.requestFrames[0] ?? '{}') as { params: { capabilities: unknown } };
    expect(request.params.capabilities).toEqual({
      effects: ['deny', 'flow'],
      flow: { operations: ['stop'] },
    });
    // A stop is no denial: the decision stays continue, the pending tool call does not run, and
    // the backend's reason is the one reported.
    expect(r).toMatchObject({
      decision: 'continue',
      flow: 'stop',
      executed: false,
      reason: 'The task is done.',
      synthetic: false,
      finalPermission: 'allow',
    });
    expect(r.audit.map((x) => [x.backendId, x.mode, x.outcome, x.boundaryCopy])).toEqual([
      [A, 'intercept', 'no-effect', undefined],
      [B, 'intercept', 'effects', undefined],
      [C, 'intercept', 'skipped', undefined],
      [C, 'observe', 'no-effect', true],
    ]);
    // The uncalled interceptor gets the boundary copy, never the request.
    expect(c.deliveries.map((d) => d.method)).toEqual(['notify']);
  });

  it('is an invalid answer when not advertised: under fail-open the chain goes on', async () => {
    const clock = new ManualClock();
    const b = new FakeTransport(clock, steps.effects([STOP]));
    const { c, reg, transports } = chain(clock, b);
    const h = createHarnessWith(optionsFor(clock, reg, transports), undefined);
    const r = await settle(h.invoke(toolCall()), clock);
    expect(r.decision).toBe('continue');
    expect(r.audit[1]).toMatchObject({
      backendId: B,
      outcome: 'operational-failure',
      failureClass: 'invalid-effects',
    });
    expect(c.deliveries.map((d) => d.method)).toEqual(['request']);
  });

  it('beside a deny in the same response: the deny decides, and the stop is still reported', async () => {
    const clock = new ManualClock();
    const b = new FakeTransport(clock, steps.effects([{ type: 'deny', reason: 'Not this one.' }, STOP]));
    const { reg, transports } = chain(clock, b);
    const h = createHarnessWith(
      optionsFor(clock, reg, transports, { advertisedEffects: ['deny', 'flow'] }),
      undefined,
    );
    const r = await settle(h.invoke(toolCall()), clock);
    expect(r).toMatchObject({ decision: 'deny', reason: 'Not this one.', flow: 'stop', executed: false });
  });
});
