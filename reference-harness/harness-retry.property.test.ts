import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../protocol/clock.js';
import { FakeTransport, resultFor, type FakeStep } from './fake-transport.js';
import { createHarnessWith } from './harness.js';
import { advanceBy } from './test-clocks.js';
import { optionsFor, registrationOf, toolCall } from './test-support.js';

type Reply = { kind: 'fail' | 'none' | 'deny' | 'hang'; delayMs: number };

const reply = fc.record({
  kind: fc.constantFrom<Reply['kind']>('fail', 'fail', 'none', 'deny', 'hang'),
  delayMs: fc.integer({ min: 0, max: 40 }),
});

describe('retries (property)', () => {
  it('resend the byte-identical frame, only after failures, only inside the original deadline', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 15 }),
        fc.integer({ min: 5, max: 120 }),
        fc.array(reply, { minLength: 6, maxLength: 6 }),
        fc.option(fc.integer({ min: 1, max: 150 }), { nil: undefined }),
        async (retries, backoffMs, timeoutMs, script, budgetMs) => {
          const clock = new ManualClock();
          const A = 'com.example.a';
          const a = new FakeTransport(clock, (frame, n): FakeStep => {
            const r = script[n - 1] as Reply;
            if (r.kind === 'hang') return { kind: 'hang' };
            if (r.kind === 'fail')
              return { kind: 'fail', failureClass: 'connection', code: 'fake.reset', afterMs: r.delayMs };
            const effects = r.kind === 'deny' ? [{ type: 'deny', reason: 'no' }] : [];
            return { kind: 'reply', message: resultFor(frame, effects), afterMs: r.delayMs };
          });
          const reg = registrationOf([
            { id: A, subs: [{ mode: 'intercept', policy: 'fail-closed', timeoutMs }] },
          ]);
          const h = createHarnessWith(
            optionsFor(clock, reg, { [A]: a }, { retries, retryBackoffMs: backoffMs }),
            undefined,
          );
          const p = h.invoke(toolCall(), budgetMs === undefined ? {} : { budgetMs });
          await advanceBy(clock, Math.min(timeoutMs, budgetMs ?? Infinity) + 1);
          const r = await p;
          const end = Math.min(timeoutMs, budgetMs ?? Infinity);
          const sends = a.deliveries;
          // Identity: one frame, sent again byte for byte.
          expect(new Set(sends.map((s) => s.frame)).size).toBe(sends.length === 0 ? 0 : 1);
          // Bounded: every send starts before the original deadline (and the budget), never more than allowed.
          expect(sends.length).toBeGreaterThanOrEqual(1);
          expect(sends.length).toBeLessThanOrEqual(retries + 1);
          for (const s of sends) expect(s.at).toBeLessThan(end);
          // Only after an operational failure: every attempt but the last was a failure.
          for (const k of sends.keys()) if (k < sends.length - 1) expect(script[k]?.kind).toBe('fail');
          const record = r.audit[0];
          expect(record?.attempts).toBe(sends.length);
          expect(record?.settledAt).toBeLessThanOrEqual(end);
          const last = script[sends.length - 1] as Reply;
          const lastArrived = (sends.at(-1)?.at ?? 0) + last.delayMs;
          const accepted = (last.kind === 'none' || last.kind === 'deny') && lastArrived < end;
          if (
            budgetMs !== undefined &&
            budgetMs <= timeoutMs &&
            !accepted &&
            record?.outcome !== 'operational-failure'
          ) {
            expect(r).toMatchObject({ interrupted: true, ending: 'budget-expired', decision: 'deny' });
          }
          if (accepted) expect(record?.outcome).toBe(last.kind === 'deny' ? 'deny' : 'no-effect');
          else expect(r.decision).toBe('deny');
        },
      ),
      { numRuns: 120 },
    );
  });
});
