import { describe, expect, it } from 'vitest';
import { ManualClock } from '../protocol/clock.js';
import { HarnessClosedError } from './errors.js';
import { FakeTransport, type FakeStep } from './fake-transport.js';
import { createHarnessWith, type TransportFactory } from './harness.js';
import { advanceBy, flush } from './test-clocks.js';
import { optionsFor, registrationOf, steps, toolCall } from './test-support.js';
import type { BackendTransport } from './transport.js';

const A = 'com.example.a';
const B = 'com.example.b';
const O = 'com.example.obs';
const P = 'com.example.obs2';

/** A transport the harness owns through a factory, with PIDs that stay live until it is closed. */
class OwnedFake extends FakeTransport {
  pids = [4242];
  override async close(): Promise<void> {
    await super.close();
    this.pids = [];
  }
  override livePids(): number[] {
    return this.pids;
  }
}

describe('close()', () => {
  it('ends in-flight calls as closed, closes owned transports only, and refuses later calls locally', async () => {
    const clock = new ManualClock();
    const injected = new FakeTransport(clock, steps.none());
    const owned: OwnedFake[] = [];
    const factory: TransportFactory = (backend, deps) => {
      expect(deps).toMatchObject({ killGraceMs: 2000, env: { HOME: '/h' } });
      const t = new OwnedFake(clock, backend.id === B ? steps.hang() : steps.none());
      owned.push(t);
      return t;
    };
    const reg = registrationOf([
      { id: A, subs: [{ mode: 'intercept', policy: 'fail-open' }] },
      { id: B, subs: [{ mode: 'intercept', policy: 'fail-open' }] },
    ]);
    const h = createHarnessWith(optionsFor(clock, reg, { [A]: injected }, { env: { HOME: '/h' } }), factory);
    expect(owned).toHaveLength(1);
    expect(h.livePids()).toEqual([4242]);
    const p = h.invoke(toolCall());
    await advanceBy(clock, 5);
    const first = h.close();
    const second = h.close();
    expect(second).toBe(first);
    const r = await p;
    expect(r).toMatchObject({ decision: 'deny', interrupted: true, ending: 'closed', synthetic: true });
    expect(r.audit.map((x) => x.outcome)).toEqual(['no-effect', 'interrupted']);
    await first;
    expect(owned[0]?.closeCalls).toBe(1);
    expect(injected.closeCalls).toBe(0);
    expect(h.livePids()).toEqual([]);
    const before = injected.deliveries.length;
    await expect(h.invoke(toolCall(2))).rejects.toBeInstanceOf(HarnessClosedError);
    await expect(h.invoke(toolCall(2))).rejects.toMatchObject({ code: 'harness-closed' });
    expect(injected.deliveries.length).toBe(before);
    await h.close();
    expect(owned[0]?.closeCalls).toBe(1);
  });

  it('resolves close only after owned transports finished closing', async () => {
    const clock = new ManualClock();
    let release!: () => void;
    const slow: BackendTransport = {
      kind: 'stdio-persistent',
      request: async () => ({ ok: false, failure: { failureClass: 'connection', code: 'x', detail: '' } }),
      notify: async () => ({ ok: true }),
      close: () => new Promise<void>((r) => (release = r)),
      livePids: () => [],
    };
    const h = createHarnessWith(
      optionsFor(clock, registrationOf([{ id: A, subs: [{ mode: 'intercept', policy: 'fail-open' }] }]), {}),
      () => slow,
    );
    let done = false;
    const closing = h.close().then(() => (done = true));
    await flush();
    expect(done).toBe(false);
    release();
    await closing;
    expect(done).toBe(true);
  });
});

describe('observers', () => {
  it('are delivered concurrently after settlement, bounded, audited, and never change the decision', async () => {
    const clock = new ManualClock();
    const a = new FakeTransport(clock, steps.none(10));
    const o = new FakeTransport(clock, steps.none(), (): FakeStep => ({ kind: 'hang' }));
    const q = new FakeTransport(clock, steps.none(), (): FakeStep => ({
      kind: 'fail',
      failureClass: 'process',
      code: 'stdio.exit-nonzero',
      afterMs: 5,
    }));
    const reg = registrationOf([
      { id: O, subs: [{ mode: 'observe' }] },
      { id: A, subs: [{ mode: 'intercept', policy: 'fail-closed' }] },
      { id: P, subs: [{ mode: 'observe', events: ['*'] }] },
    ]);
    const h = createHarnessWith(
      optionsFor(clock, reg, { [A]: a, [O]: o, [P]: q }, { observerBoundMs: 40 }),
      undefined,
    );
    let resolved = false;
    const p = h.invoke(toolCall()).then((r) => ((resolved = true), r));
    await advanceBy(clock, 10);
    // Settled at 10: both observers started together, none before settlement.
    expect([o.deliveries[0]?.at, q.deliveries[0]?.at]).toEqual([10, 10]);
    await advanceBy(clock, 39);
    expect(resolved).toBe(false);
    await advanceBy(clock, 1);
    const r = await p;
    expect(r).toMatchObject({ decision: 'continue', interrupted: false });
    expect(r.audit.map((x) => [x.backendId, x.mode, x.outcome, x.failureClass, x.settledAt])).toEqual([
      [A, 'intercept', 'no-effect', undefined, 10],
      [O, 'observe', 'operational-failure', 'deadline-exceeded', 50],
      [P, 'observe', 'operational-failure', 'process', 15],
    ]);
  });

  it('retry a failed notification with the exact same frame', async () => {
    const clock = new ManualClock();
    const o = new FakeTransport(clock, steps.none(), (_f, n): FakeStep =>
      n === 1 ? { kind: 'fail', failureClass: 'connection', code: 'x' } : { kind: 'ack' },
    );
    const h = createHarnessWith(
      optionsFor(clock, registrationOf([{ id: O, subs: [{ mode: 'observe' }] }]), { [O]: o }, { retries: 1 }),
      undefined,
    );
    const p = h.invoke(toolCall());
    await advanceBy(clock, 1);
    const r = await p;
    expect(o.deliveries).toHaveLength(2);
    expect(o.deliveries[0]?.frame).toBe(o.deliveries[1]?.frame);
    expect(r.audit[0]).toMatchObject({ outcome: 'no-effect', attempts: 2 });
  });

  it('consume the call budget: expiry cuts them and interrupts the call, an explicit deny staying explicit', async () => {
    const clock = new ManualClock();
    const o = new FakeTransport(clock, steps.none(), (): FakeStep => ({ kind: 'hang' }));
    const a = new FakeTransport(clock, steps.deny('no'));
    const reg = registrationOf([
      { id: A, subs: [{ mode: 'intercept', policy: 'fail-open' }] },
      { id: O, subs: [{ mode: 'observe' }] },
    ]);
    const h = createHarnessWith(
      optionsFor(clock, reg, { [A]: a, [O]: o }, { observerBoundMs: 500 }),
      undefined,
    );
    const p = h.invoke(toolCall(), { budgetMs: 30 });
    await advanceBy(clock, 30);
    const r = await p;
    expect(r).toMatchObject({
      decision: 'deny',
      reason: 'no',
      synthetic: false,
      interrupted: true,
      ending: 'budget-expired',
    });
    expect(r.audit.map((x) => [x.mode, x.outcome, x.settledAt])).toEqual([
      ['intercept', 'deny', 0],
      ['observe', 'budget-expired', 30],
    ]);
  });

  it('an interruption while they run turns a settled continue into a denial (never permission)', async () => {
    for (const ending of ['cancelled', 'closed'] as const) {
      const clock = new ManualClock();
      const o = new FakeTransport(clock, steps.none(), (): FakeStep => ({ kind: 'hang' }));
      const a = new FakeTransport(clock, steps.none());
      const reg = registrationOf([
        { id: A, subs: [{ mode: 'intercept', policy: 'fail-open' }] },
        { id: O, subs: [{ mode: 'observe' }] },
      ]);
      const h = createHarnessWith(optionsFor(clock, reg, { [A]: a, [O]: o }), undefined);
      const caller = new AbortController();
      const p = h.invoke(toolCall(), { signal: caller.signal });
      await advanceBy(clock, 5);
      expect(o.deliveries).toHaveLength(1);
      if (ending === 'cancelled') caller.abort();
      else void h.close();
      const r = await p;
      expect(r).toMatchObject({ decision: 'deny', synthetic: true, interrupted: true, ending });
      expect(r.audit.map((x) => [x.mode, x.outcome])).toEqual([
        ['intercept', 'no-effect'],
        ['observe', 'interrupted'],
      ]);
    }
  });

  it('an observer failure or bound alone never changes the settled decision', async () => {
    const clock = new ManualClock();
    const o = new FakeTransport(clock, steps.none(), (): FakeStep => ({ kind: 'hang' }));
    const a = new FakeTransport(clock, steps.none());
    const reg = registrationOf([
      { id: A, subs: [{ mode: 'intercept', policy: 'fail-closed' }] },
      { id: O, subs: [{ mode: 'observe' }] },
    ]);
    const h = createHarnessWith(
      optionsFor(clock, reg, { [A]: a, [O]: o }, { observerBoundMs: 20 }),
      undefined,
    );
    const p = h.invoke(toolCall(), { budgetMs: 1000 });
    await advanceBy(clock, 20);
    const r = await p;
    expect(r).toMatchObject({ decision: 'continue', synthetic: false, interrupted: false });
    expect(r.audit[1]).toMatchObject({ outcome: 'operational-failure', failureClass: 'deadline-exceeded' });
  });

  it('after a fail-closed short-circuit, only uncalled interceptors get the boundary copy', async () => {
    const clock = new ManualClock();
    const a = new FakeTransport(clock, steps.none());
    const b = new FakeTransport(clock, () => ({
      kind: 'fail',
      failureClass: 'auth',
      code: 'auth.provider-failed',
    }));
    const reg = registrationOf([
      {
        id: A,
        subs: [
          { mode: 'intercept', policy: 'fail-open' },
          { mode: 'intercept', policy: 'fail-open', events: ['session.start'] },
        ],
      },
      { id: B, subs: [{ mode: 'intercept', policy: 'fail-closed' }] },
      {
        id: O,
        subs: [
          { mode: 'intercept', policy: 'fail-open' },
          { mode: 'intercept', policy: 'fail-closed' },
        ],
      },
    ]);
    const o = new FakeTransport(clock, steps.none());
    const h = createHarnessWith(optionsFor(clock, reg, { [A]: a, [B]: b, [O]: o }), undefined);
    const p = h.invoke(toolCall());
    await advanceBy(clock, 1);
    const r = await p;
    expect(r).toMatchObject({ decision: 'deny', synthetic: true });
    expect(a.deliveries.map((d) => d.method)).toEqual(['request']);
    expect(b.deliveries.map((d) => d.method)).toEqual(['request']);
    // Two uncalled subscriptions on one backend: two copies, never deduplicated.
    expect(o.deliveries.map((d) => d.method)).toEqual(['notify', 'notify']);
    const copies = r.audit.filter((x) => x.boundaryCopy);
    expect(copies.map((x) => [x.backendId, x.subscriptionIndex, x.mode])).toEqual([
      [O, 0, 'observe'],
      [O, 1, 'observe'],
    ]);
  });
});
