import { describe, expect, it } from 'vitest';
import { ManualClock } from '../protocol/clock.js';
import { FakeTransport } from './fake-transport.js';
import { createHarnessWith } from './harness.js';
import { HarnessInputError } from './errors.js';
import { advanceBy } from './test-clocks.js';
import { optionsFor, registrationOf, steps, toolCall } from './test-support.js';

const A = 'com.example.a';

function harnessWith(step: ReturnType<typeof steps.none>, events = ['*'], advertised?: string[]) {
  const clock = new ManualClock();
  const a = new FakeTransport(clock, step);
  const reg = registrationOf([{ id: A, subs: [{ mode: 'intercept', policy: 'fail-open', events }] }]);
  const extra = advertised === undefined ? {} : { advertisedEffects: advertised as never };
  const h = createHarnessWith(optionsFor(clock, reg, { [A]: a }, extra), undefined);
  return { clock, a, h };
}

const turnStart = {
  type: 'turn.start',
  eventId: 'evt_t1',
  time: '2026-01-01T00:00:00Z',
  fields: { session: { id: 'sess_1' }, turn: { id: 'turn_1' }, trigger: 'user', items: [] },
};

describe('raising an event other than tool.before', () => {
  it('fills in the envelope, advertises only what the boundary allows and settles through the chain', async () => {
    const { clock, a, h } = harnessWith(
      steps.deny('no turn'),
      ['turn.start'],
      ['deny', 'allow', 'message', 'modify'],
    );
    const pending = h.invoke(turnStart);
    await advanceBy(clock, 0);
    const r = await pending;
    const request = JSON.parse(a.requestFrames[0] ?? '{}');
    expect(request.params.event).toEqual({
      id: 'evt_t1',
      source: 'urn:uuid:00000000-0000-4000-8000-00000000000a',
      type: 'turn.start',
      time: '2026-01-01T00:00:00Z',
      session: { id: 'sess_1' },
      turn: { id: 'turn_1' },
      trigger: 'user',
      items: [],
    });
    // turn.start allows deny, message and modify(prompt); allow is a tool.before effect.
    expect(request.params.capabilities).toEqual({
      effects: ['deny', 'message', 'modify'],
      modify: { prompt: { replace: true, merge: true } },
    });
    expect(r).toMatchObject({
      decision: 'deny',
      reason: 'no turn',
      executed: false,
      finalPermission: 'deny',
    });
  });

  it('advertises nothing an event cannot take (tool.after takes no deny), so a deny there is a failure', async () => {
    const { clock, a, h } = harnessWith(steps.deny());
    const pending = h.invoke({
      type: 'tool.after',
      fields: {
        call: { id: 'c1' },
        tool: { name: 'Bash', origin: 'native', input: {} },
        path: 'native',
        outcome: 'ok',
        execution: { status: 'executed' },
        items: [],
      },
    });
    await advanceBy(clock, 0);
    const r = await pending;
    expect(JSON.parse(a.requestFrames[0] ?? '{}').params.capabilities).toEqual({ effects: [] });
    // fail-open: the unadvertised deny is an operational failure the call continues past.
    expect(r.audit[0]).toMatchObject({ outcome: 'operational-failure' });
    expect(r).toMatchObject({ decision: 'continue', executed: true });
  });

  it('refuses an invalid event, tool.before in the generic shape, and envelope fields given by the caller', async () => {
    const { h } = harnessWith(steps.none());
    await expect(h.invoke({ ...turnStart, fields: { trigger: 'user', items: [] } })).rejects.toBeInstanceOf(
      HarnessInputError,
    );
    await expect(h.invoke({ type: 'tool.before', fields: {} })).rejects.toThrow(/interceptable event/);
    await expect(h.invoke({ type: 'session.end', fields: {} })).rejects.toThrow(/interceptable event/);
    await expect(
      h.invoke({ ...turnStart, fields: { ...turnStart.fields, source: 'urn:x' } }),
    ).rejects.toBeInstanceOf(HarnessInputError);
  });
});

describe('host permission', () => {
  async function settle(
    step: ReturnType<typeof steps.none>,
    hostPermission: 'allow' | 'ask' | 'deny',
    advertised?: string[],
  ) {
    const { clock, h } = harnessWith(step, ['tool.before'], advertised);
    const pending = h.invoke(toolCall(), { hostPermission });
    await advanceBy(clock, 500);
    return pending;
  }

  it('an empty effect list never turns a host deny or ask into permission to run', async () => {
    expect(await settle(steps.none(), 'deny')).toMatchObject({
      decision: 'continue',
      finalPermission: 'deny',
      executed: false,
    });
    expect(await settle(steps.none(), 'ask')).toMatchObject({
      decision: 'continue',
      finalPermission: 'ask',
      executed: false,
    });
    expect(await settle(steps.none(), 'allow')).toMatchObject({ finalPermission: 'allow', executed: true });
  });

  it('an allow effect never lifts a host deny; an ask makes allow into ask; a deny is never executed', async () => {
    const allow = steps.effects([{ type: 'allow' }]);
    const ask = steps.effects([{ type: 'ask' }]);
    expect(await settle(allow, 'deny', ['deny', 'allow', 'ask'])).toMatchObject({
      permission: 'allow',
      finalPermission: 'deny',
      executed: false,
    });
    expect(await settle(ask, 'allow', ['deny', 'allow', 'ask'])).toMatchObject({
      finalPermission: 'ask',
      executed: false,
    });
    expect(await settle(steps.deny(), 'allow')).toMatchObject({
      decision: 'deny',
      finalPermission: 'deny',
      executed: false,
    });
  });

  it('a fail-open failure with a host ask is not executed', async () => {
    const r = await settle(steps.hang(), 'ask');
    expect(r.audit[0]).toMatchObject({ outcome: 'operational-failure', failureClass: 'deadline-exceeded' });
    expect(r).toMatchObject({ decision: 'continue', finalPermission: 'ask', executed: false });
  });

  it('refuses an unknown host permission', async () => {
    const { h } = harnessWith(steps.none());
    await expect(h.invoke(toolCall(), { hostPermission: 'maybe' as never })).rejects.toBeInstanceOf(
      HarnessInputError,
    );
  });
});
