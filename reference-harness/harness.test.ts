import { describe, expect, it } from 'vitest';
import { ManualClock } from '../protocol/clock.js';
import type { FailureClass } from '../protocol/failure-classes.js';
import { FakeTransport, resultFor, type FakeStep } from './fake-transport.js';
import { createHarnessWith, type InvokeResult } from './harness.js';
import { SYNTHETIC_DENIAL_REASON } from './synthetic-denial.js';
import { advanceBy } from './test-clocks.js';
import { optionsFor, registrationOf, steps, toolCall } from './test-support.js';

const A = 'com.example.a';
const B = 'com.example.b';
const O = 'com.example.obs';

async function run(invoke: Promise<InvokeResult>, clock: ManualClock, ms = 0): Promise<InvokeResult> {
  await advanceBy(clock, ms);
  return invoke;
}

function parsed(frame: string | undefined): {
  id: unknown;
  params: { event: { id: string; tool: { input: unknown } } };
} {
  return JSON.parse(frame ?? 'null');
}

describe('dispatch and decisions', () => {
  it('adds no decision step without a matching interceptor, and observers still get the event', async () => {
    const clock = new ManualClock();
    const a = new FakeTransport(clock, steps.none());
    const o = new FakeTransport(clock, steps.none());
    const reg = registrationOf([
      { id: A, subs: [{ mode: 'intercept', policy: 'fail-closed', events: ['session.start'] }] },
      { id: O, subs: [{ mode: 'observe', events: ['tool.*'] }] },
    ]);
    const h = createHarnessWith(optionsFor(clock, reg, { [A]: a, [O]: o }), undefined);
    const r = await run(h.invoke(toolCall()), clock);
    expect(r).toMatchObject({ decision: 'continue', synthetic: false, interrupted: false });
    expect(a.deliveries).toEqual([]);
    expect(o.deliveries.map((d) => d.method)).toEqual(['notify']);
    const note = JSON.parse(o.deliveries[0]?.frame ?? '{}');
    expect(note).toEqual({
      jsonrpc: '2.0',
      method: 'hooks/observe',
      params: { protocolVersion: 'draft', event: r.event },
    });
    expect(r.audit.map((x) => [x.backendId, x.mode, x.outcome])).toEqual([[O, 'observe', 'no-effect']]);
  });

  it('sends a request whose id is the event id and advertises only deny by default', async () => {
    const clock = new ManualClock();
    const a = new FakeTransport(clock, steps.none());
    const h = createHarnessWith(
      optionsFor(clock, registrationOf([{ id: A, subs: [{ mode: 'intercept', policy: 'fail-open' }] }]), {
        [A]: a,
      }),
      undefined,
    );
    const r = await run(h.invoke(toolCall()), clock);
    const request = JSON.parse(a.requestFrames[0] ?? '{}');
    expect(request).toEqual({
      jsonrpc: '2.0',
      id: 'evt_1',
      method: 'hooks/intercept',
      params: {
        protocolVersion: 'draft',
        event: r.event,
        capabilities: { effects: ['deny'] },
        // The incoming control state: nothing accepted before the first interceptor.
        state: { permission: 'none', candidate: null },
      },
    });
    expect(r.event).toMatchObject({
      id: 'evt_1',
      type: 'tool.before',
      call: { id: 'call_1' },
      path: 'native',
    });
    expect(r.audit).toEqual([
      expect.objectContaining({
        backendId: A,
        mode: 'intercept',
        outcome: 'no-effect',
        policy: 'fail-open',
        attempts: 1,
      }),
    ]);
    expect(r.audit[0]).not.toHaveProperty('synthetic');
    expect(r.transcript.map((t) => [t.backendId, t.direction, t.attempt])).toEqual([
      [A, 'out', 1],
      [A, 'in', 1],
    ]);
    expect(r.transcript[0]?.text).toBe(a.requestFrames[0]);
  });

  it.each(['fail-open', 'fail-closed'] as const)(
    'an explicit deny under %s denies with the backend reason, and is not synthetic',
    async (policy) => {
      const clock = new ManualClock();
      const a = new FakeTransport(clock, steps.deny('Force push blocked by org policy.'));
      const b = new FakeTransport(clock, steps.none());
      const o = new FakeTransport(clock, steps.none());
      const reg = registrationOf([
        { id: A, subs: [{ mode: 'intercept', policy }] },
        { id: B, subs: [{ mode: 'intercept', policy: 'fail-closed' }] },
        { id: O, subs: [{ mode: 'observe' }] },
      ]);
      const h = createHarnessWith(optionsFor(clock, reg, { [A]: a, [B]: b, [O]: o }), undefined);
      const r = await run(h.invoke(toolCall()), clock);
      expect(r).toMatchObject({
        decision: 'deny',
        reason: 'Force push blocked by org policy.',
        synthetic: false,
      });
      expect(r.audit.map((x) => [x.backendId, x.mode, x.outcome, x.synthetic, x.boundaryCopy])).toEqual([
        [A, 'intercept', 'deny', false, undefined],
        [B, 'intercept', 'skipped', undefined, undefined],
        [O, 'observe', 'no-effect', undefined, undefined],
        [B, 'observe', 'no-effect', undefined, true],
      ]);
      // The uncalled interceptor gets the boundary as a notification, never a request.
      expect(b.deliveries.map((d) => d.method)).toEqual(['notify']);
    },
  );

  const failures: Array<[FailureClass, (frame: string) => FakeStep]> = [
    ['connection', () => ({ kind: 'fail', failureClass: 'connection', code: 'stdio.stdout-closed' })],
    ['process', () => ({ kind: 'fail', failureClass: 'process', code: 'stdio.exit-nonzero' })],
    ['auth', () => ({ kind: 'fail', failureClass: 'auth', code: 'auth.env-missing' })],
    ['http-status', () => ({ kind: 'fail', failureClass: 'http-status', code: 'http.status' })],
    ['malformed', steps.raw({ jsonrpc: '2.0', result: { secret: 'sk-live-123' } })],
    [
      'id-mismatch',
      (f) => ({ kind: 'reply', message: { ...(resultFor(f, []) as object), id: 'evt_other' } }),
    ],
    [
      'jsonrpc-error',
      steps.raw({ jsonrpc: '2.0', id: 'evt_1', error: { code: -32004, message: 'at /srv/x.js:12' } }),
    ],
    ['unsupported', steps.raw({ jsonrpc: '2.0', id: 'evt_1', error: { code: -32001, message: 'v' } })],
    ['unsupported', (f) => ({ kind: 'reply', message: resultFor(f, [], '1900-01-01') })],
    ['missing-fields', steps.raw({ jsonrpc: '2.0', id: 'evt_1', result: { effects: [] } })],
    ['invalid-effects', steps.effects([{ type: 'deny', reason: 'token=abc' }, { type: 'bogus' }])],
    ['invalid-effects', steps.effects([{ type: 'allow' }])],
  ];

  it.each(failures)('a %s failure continues unchanged under fail-open', async (failureClass, step) => {
    const clock = new ManualClock();
    const a = new FakeTransport(clock, step);
    const b = new FakeTransport(clock, steps.none());
    const reg = registrationOf([
      { id: A, subs: [{ mode: 'intercept', policy: 'fail-open' }] },
      { id: B, subs: [{ mode: 'intercept', policy: 'fail-closed' }] },
    ]);
    const h = createHarnessWith(optionsFor(clock, reg, { [A]: a, [B]: b }), undefined);
    const r = await run(h.invoke(toolCall()), clock);
    expect(r).toMatchObject({ decision: 'continue', synthetic: false, interrupted: false });
    expect(r.audit[0]).toMatchObject({ outcome: 'operational-failure', failureClass, policy: 'fail-open' });
    expect(r.audit[0]).not.toHaveProperty('synthetic');
    expect(b.requestFrames).toHaveLength(1);
    expect(r.effectiveEvent).toEqual(r.event);
  });

  it.each(failures)(
    'a %s failure under fail-closed is a synthetic denial with a generic reason',
    async (failureClass, step) => {
      const clock = new ManualClock();
      const a = new FakeTransport(clock, step);
      const b = new FakeTransport(clock, steps.none());
      const reg = registrationOf([
        { id: A, subs: [{ mode: 'intercept', policy: 'fail-closed' }] },
        { id: B, subs: [{ mode: 'intercept', policy: 'fail-open' }] },
      ]);
      const h = createHarnessWith(optionsFor(clock, reg, { [A]: a, [B]: b }), undefined);
      const r = await run(h.invoke(toolCall()), clock);
      expect(r).toMatchObject({
        decision: 'deny',
        reason: SYNTHETIC_DENIAL_REASON,
        synthetic: true,
        interrupted: false,
      });
      expect(r.audit[0]).toMatchObject({
        outcome: 'operational-failure',
        failureClass,
        policy: 'fail-closed',
        synthetic: true,
      });
      expect(r.audit[0]?.failureCode).toMatch(/^[a-z0-9-]+\.[a-z0-9.-]+$/);
      expect(b.requestFrames).toHaveLength(0);
      expect(b.deliveries.map((d) => d.method)).toEqual(['notify']);
      expect(r).not.toHaveProperty('denyCode');
    },
  );

  it('rejects a whole response with one bad member, a valid deny beside it included (policy once)', async () => {
    const clock = new ManualClock();
    const a = new FakeTransport(
      clock,
      steps.effects([
        { type: 'deny', reason: 'no' },
        { type: 'deny', reason: 'x', extra: 1 },
      ]),
    );
    const h = createHarnessWith(
      optionsFor(clock, registrationOf([{ id: A, subs: [{ mode: 'intercept', policy: 'fail-open' }] }]), {
        [A]: a,
      }),
      undefined,
    );
    const r = await run(h.invoke(toolCall()), clock);
    expect(r.decision).toBe('continue');
    expect(r.audit).toHaveLength(1);
    expect(r.audit[0]).toMatchObject({
      outcome: 'operational-failure',
      failureClass: 'invalid-effects',
      attempts: 1,
    });
  });

  it('runs interceptors serially in hooks then subscription order, one backend possibly twice', async () => {
    const clock = new ManualClock();
    const log: string[] = [];
    const script =
      (name: string) =>
      (frame: string, n: number): FakeStep => {
        log.push(`${name}#${n}@${clock.now()}`);
        return { kind: 'reply', message: resultFor(frame, []), afterMs: 10 };
      };
    const a = new FakeTransport(clock, script('a'));
    const b = new FakeTransport(clock, script('b'));
    const reg = registrationOf([
      {
        id: B,
        subs: [
          { mode: 'intercept', policy: 'fail-open' },
          { mode: 'intercept', policy: 'fail-open', events: ['*'] },
        ],
      },
      { id: A, subs: [{ mode: 'intercept', policy: 'fail-open', events: ['tool.*'] }] },
    ]);
    const h = createHarnessWith(optionsFor(clock, reg, { [A]: a, [B]: b }), undefined);
    const r = await run(h.invoke(toolCall()), clock, 30);
    expect(log).toEqual(['b#1@0', 'b#2@10', 'a#1@20']);
    expect(r.audit.map((x) => [x.backendId, x.subscriptionIndex, x.startedAt, x.settledAt])).toEqual([
      [B, 0, 0, 10],
      [B, 1, 10, 20],
      [A, 0, 20, 30],
    ]);
  });

  it('chains accepted edits: later interceptors and observers see the effective input', async () => {
    const clock = new ManualClock();
    const a = new FakeTransport(
      clock,
      steps.effects([
        { type: 'modify', target: 'input', operation: 'merge', value: { command: 'git push' } },
        { type: 'message', text: 'Removed --force.' },
        { type: 'allow' },
      ]),
    );
    const b = new FakeTransport(clock, steps.none());
    const o = new FakeTransport(clock, steps.none());
    const reg = registrationOf([
      { id: A, subs: [{ mode: 'intercept', policy: 'fail-closed' }] },
      { id: B, subs: [{ mode: 'intercept', policy: 'fail-closed' }] },
      { id: O, subs: [{ mode: 'observe' }] },
    ]);
    const opts = optionsFor(
      clock,
      reg,
      { [A]: a, [B]: b, [O]: o },
      { advertisedEffects: ['deny', 'modify', 'message', 'allow'] },
    );
    const h = createHarnessWith(opts, undefined);
    const r = await run(h.invoke(toolCall()), clock);
    expect(r).toMatchObject({ decision: 'continue', permission: 'allow', messages: ['Removed --force.'] });
    expect(r.audit[0]).toMatchObject({ outcome: 'effects', effects: ['modify', 'message', 'allow'] });
    expect(parsed(b.requestFrames[0]).params.event.tool.input).toEqual({ command: 'git push' });
    expect(parsed(b.requestFrames[0]).id).toBe('evt_1');
    expect(JSON.parse(o.deliveries[0]?.frame ?? '{}').params.event.tool.input).toEqual({
      command: 'git push',
    });
    expect(r.event.tool.input).toEqual({ command: 'git push --force' });
  });
});
