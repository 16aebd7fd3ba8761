import { describe, expect, it } from 'vitest';
import { ManualClock } from '../protocol/clock.js';
import { FakeTransport, resultFor, type FakeStep } from './fake-transport.js';
import { createHarnessWith } from './harness.js';
import { interruptedReason, SYNTHETIC_DENIAL_REASON } from './synthetic-denial.js';
import { advanceBy, flush, LaggingClock } from './test-clocks.js';
import { optionsFor, registrationOf, steps, toolCall } from './test-support.js';
import type { SendContext, TransportReply } from './transport.js';

const A = 'com.example.a';
const B = 'com.example.b';
const O = 'com.example.obs';

function single(policy: 'fail-open' | 'fail-closed', timeoutMs = 100) {
  return registrationOf([{ id: A, subs: [{ mode: 'intercept', policy, timeoutMs }] }]);
}

describe('deadlines and late replies', () => {
  it.each([
    ['fail-open', 'continue', false],
    ['fail-closed', 'deny', true],
  ] as const)('a reply after the deadline is ignored and %s applies', async (policy, decision, synthetic) => {
    const clock = new ManualClock();
    const a = new FakeTransport(clock, (f) => ({
      kind: 'reply',
      message: resultFor(f, [{ type: 'deny', reason: 'late' }]),
      afterMs: 150,
    }));
    const h2 = createHarnessWith(optionsFor(clock, single(policy), { [A]: a }), undefined);
    const p = h2.invoke(toolCall());
    await advanceBy(clock, 100);
    const r = await p;
    expect(r).toMatchObject({ decision, synthetic, interrupted: false });
    expect(r.audit[0]).toMatchObject({
      outcome: 'operational-failure',
      failureClass: 'deadline-exceeded',
      settledAt: 100,
    });
    expect(r.audit[0]).not.toHaveProperty('lateResponse');
    await advanceBy(clock, 60);
    // The late deny only adds a note; nothing else changes, then or for later calls.
    expect(r.audit[0]?.lateResponse).toEqual({ at: 150, bytesLength: expect.any(Number) });
    expect(r).toMatchObject({ decision, synthetic, interrupted: false });
    expect(r.transcript.map((t) => t.direction)).toEqual(['out', 'in']);
    const next = h2.invoke(toolCall(2));
    await advanceBy(clock, 100);
    expect((await next).audit[0]).toMatchObject({ failureClass: 'deadline-exceeded' });
  });

  it('refuses a reply that is read after the deadline before the timer callback ran (auth callback recheck)', async () => {
    // An external auth callback returns late: by the time the reply is in hand, the deadline has
    // passed, though the timer callback has not run yet. The harness must not accept it.
    const clock = new LaggingClock();
    const transport = {
      kind: 'injected' as const,
      async request(frame: string, _ctx: SendContext): Promise<TransportReply> {
        await flush(1);
        clock.time = 100; // the token provider took the whole deadline
        const message = resultFor(frame, []);
        return { ok: true, message, raw: new TextEncoder().encode(JSON.stringify(message)) };
      },
      notify: async () => ({ ok: true as const }),
      close: async () => undefined,
      livePids: () => [],
    };
    const h = createHarnessWith(
      optionsFor(clock, single('fail-closed'), {}, { transports: { [A]: transport } }),
      undefined,
    );
    const r = await h.invoke(toolCall());
    expect(r).toMatchObject({ decision: 'deny', synthetic: true, reason: SYNTHETIC_DENIAL_REASON });
    expect(r.audit[0]).toMatchObject({ failureClass: 'deadline-exceeded' });
  });
});

describe('retries', () => {
  it('retries only after an operational failure, resending the byte-identical frame', async () => {
    const clock = new ManualClock();
    const a = new FakeTransport(clock, (f, n): FakeStep =>
      n < 3
        ? { kind: 'fail', failureClass: 'connection', code: 'stdio.reset', afterMs: 5 }
        : { kind: 'reply', message: resultFor(f, []) },
    );
    const h = createHarnessWith(
      optionsFor(clock, single('fail-closed'), { [A]: a }, { retries: 3, retryBackoffMs: 5 }),
      undefined,
    );
    const p = h.invoke(toolCall());
    await advanceBy(clock, 30);
    const r = await p;
    expect(r).toMatchObject({ decision: 'continue' });
    expect(r.audit[0]).toMatchObject({ outcome: 'no-effect', attempts: 3 });
    expect(new Set(a.requestFrames).size).toBe(1);
    expect(a.deliveries.map((d) => d.at)).toEqual([0, 10, 20]);
    expect(r.transcript.filter((t) => t.direction === 'out').map((t) => t.attempt)).toEqual([1, 2, 3]);
  });

  it.each([
    ['a valid deny', steps.deny()],
    ['a successful []', steps.none()],
  ])('never retries %s', async (_name, step) => {
    const clock = new ManualClock();
    const a = new FakeTransport(clock, step);
    const h = createHarnessWith(
      optionsFor(clock, single('fail-open'), { [A]: a }, { retries: 5 }),
      undefined,
    );
    const p = h.invoke(toolCall());
    await advanceBy(clock, 10);
    await p;
    expect(a.requestFrames).toHaveLength(1);
  });

  it('ends the whole retry sequence by the original deadline', async () => {
    const clock = new ManualClock();
    const a = new FakeTransport(clock, () => ({
      kind: 'fail',
      failureClass: 'connection',
      code: 'x',
      afterMs: 30,
    }));
    const h = createHarnessWith(
      optionsFor(clock, single('fail-closed', 100), { [A]: a }, { retries: 10 }),
      undefined,
    );
    const p = h.invoke(toolCall());
    await advanceBy(clock, 100);
    const r = await p;
    expect(a.deliveries.map((d) => d.at)).toEqual([0, 30, 60, 90]);
    expect(r.audit[0]).toMatchObject({ failureClass: 'deadline-exceeded', attempts: 4, settledAt: 100 });
    expect(r.decision).toBe('deny');
  });
});

describe('enclosing budget and cancellation', () => {
  it('caps a subscription deadline by the remaining budget and reports expiry, never continue', async () => {
    const clock = new ManualClock();
    const a = new FakeTransport(clock, steps.none(30));
    const b = new FakeTransport(clock, steps.hang());
    const o = new FakeTransport(clock, steps.none());
    const reg = registrationOf([
      { id: A, subs: [{ mode: 'intercept', policy: 'fail-open', timeoutMs: 1000 }] },
      {
        id: B,
        subs: [
          { mode: 'intercept', policy: 'fail-open', timeoutMs: 1000 },
          { mode: 'intercept', policy: 'fail-open' },
        ],
      },
      { id: O, subs: [{ mode: 'observe' }] },
    ]);
    const h = createHarnessWith(optionsFor(clock, reg, { [A]: a, [B]: b, [O]: o }), undefined);
    const p = h.invoke(toolCall(), { budgetMs: 50 });
    await advanceBy(clock, 50);
    const r = await p;
    expect(r).toMatchObject({
      decision: 'deny',
      interrupted: true,
      ending: 'budget-expired',
      synthetic: true,
      reason: interruptedReason('budget-expired'),
    });
    expect(r.audit.map((x) => [x.backendId, x.mode, x.outcome, x.settledAt])).toEqual([
      [A, 'intercept', 'no-effect', 30],
      [B, 'intercept', 'budget-expired', 50],
      [B, 'intercept', 'skipped', 50],
      [O, 'observe', 'skipped', 50],
    ]);
    // Interruption starts no observations.
    expect(o.deliveries).toEqual([]);
  });

  it('keeps the shorter subscription timeout inside a larger budget', async () => {
    const clock = new ManualClock();
    const a = new FakeTransport(clock, steps.hang());
    const h = createHarnessWith(optionsFor(clock, single('fail-open', 20), { [A]: a }), undefined);
    const p = h.invoke(toolCall(), { budgetMs: 500 });
    await advanceBy(clock, 20);
    const r = await p;
    expect(r).toMatchObject({ decision: 'continue', interrupted: false });
    expect(r.audit[0]).toMatchObject({ failureClass: 'deadline-exceeded', settledAt: 20 });
  });

  it('explicit cancellation ends the pending request at once and overrides fail-open and an accepted approval', async () => {
    const clock = new ManualClock();
    const a = new FakeTransport(clock, steps.effects([{ type: 'allow' }]));
    const b = new FakeTransport(clock, steps.hang());
    const reg = registrationOf([
      { id: A, subs: [{ mode: 'intercept', policy: 'fail-open' }] },
      { id: B, subs: [{ mode: 'intercept', policy: 'fail-open' }] },
    ]);
    const h = createHarnessWith(
      optionsFor(clock, reg, { [A]: a, [B]: b }, { advertisedEffects: ['deny', 'allow'] }),
      undefined,
    );
    const caller = new AbortController();
    const p = h.invoke(toolCall(), { signal: caller.signal });
    await advanceBy(clock, 5);
    caller.abort();
    const r = await p;
    expect(r).toMatchObject({ decision: 'deny', interrupted: true, ending: 'cancelled', synthetic: true });
    expect(r.audit.map((x) => x.outcome)).toEqual(['effects', 'interrupted']);
    expect(r.audit[1]?.settledAt).toBe(5);
  });

  it('sends nothing for a call whose signal is already aborted or whose budget is zero', async () => {
    const clock = new ManualClock();
    const a = new FakeTransport(clock, steps.none());
    const h = createHarnessWith(optionsFor(clock, single('fail-open'), { [A]: a }), undefined);
    const r1 = await h.invoke(toolCall(), { signal: AbortSignal.abort() });
    const r2 = await h.invoke(toolCall(), { budgetMs: 0 });
    expect(r1).toMatchObject({ decision: 'deny', interrupted: true, ending: 'cancelled' });
    expect(r2).toMatchObject({ decision: 'deny', interrupted: true, ending: 'budget-expired' });
    expect(r1.audit.map((x) => x.outcome)).toEqual(['skipped']);
    expect(a.deliveries).toEqual([]);
  });

  it('denies an interrupted call even with no interceptor at all', async () => {
    const clock = new ManualClock();
    const o = new FakeTransport(clock, steps.none());
    const h = createHarnessWith(
      optionsFor(clock, registrationOf([{ id: O, subs: [{ mode: 'observe' }] }]), { [O]: o }),
      undefined,
    );
    const r = await h.invoke(toolCall(), { signal: AbortSignal.abort() });
    expect(r).toMatchObject({ decision: 'deny', interrupted: true });
    expect(o.deliveries).toEqual([]);
  });

  it('a late reply after an interruption never revives the call', async () => {
    const clock = new ManualClock();
    const a = new FakeTransport(clock, (f) => ({ kind: 'reply', message: resultFor(f, []), afterMs: 40 }));
    const h = createHarnessWith(optionsFor(clock, single('fail-open'), { [A]: a }), undefined);
    const p = h.invoke(toolCall(), { budgetMs: 30 });
    await advanceBy(clock, 30);
    const r = await p;
    await advanceBy(clock, 20);
    expect(r).toMatchObject({ decision: 'deny', interrupted: true, ending: 'budget-expired' });
    expect(r.audit[0]).toMatchObject({ outcome: 'budget-expired', lateResponse: { at: 40 } });
  });
});
