import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Clock } from '../protocol/clock.js';
import type { FailurePolicy } from '../protocol/failure-classes.js';
import { FakeTransport, resultFor } from './fake-transport.js';
import { createHarnessWith } from './harness.js';
import { optionsFor, registrationOf, toolCall } from './test-support.js';

const REPLY_MS = 7;
const TIMEOUT_MS = 100;
const BUDGET_MS = 1000;
const LABELS: Record<number, string> = {
  [REPLY_MS]: 'reply',
  [TIMEOUT_MS]: 'deadline',
  [BUDGET_MS]: 'budget',
};

/** A clock whose every timer is a task of the fast-check scheduler: the scheduler decides who fires first. */
class SchedulerClock implements Clock {
  constructor(
    private readonly s: fc.Scheduler,
    private readonly fired: string[],
  ) {}
  now(): number {
    return 0;
  }
  wallNow(): number {
    return 1_767_225_600_000;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = (): void => reject(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      void this.s.schedule(Promise.resolve(), `sleep(${ms})`).then(() => {
        if (signal?.aborted) return;
        signal?.removeEventListener('abort', onAbort);
        this.fired.push(LABELS[ms] ?? `sleep(${ms})`);
        resolve();
      });
    });
  }
}

const scenario = fc.record({
  policy: fc.constantFrom<FailurePolicy>('fail-open', 'fail-closed'),
  replyDenies: fc.boolean(),
  withCancel: fc.boolean(),
  withClose: fc.boolean(),
  withBudget: fc.boolean(),
});

describe('reply vs deadline vs cancel vs close (property)', () => {
  it('never continues an interrupted call, and the result follows an event that really happened first', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), scenario, async (s, sc) => {
        const fired: string[] = [];
        const clock = new SchedulerClock(s, fired);
        const A = 'com.example.a';
        const effects = sc.replyDenies ? [{ type: 'deny', reason: 'backend says no' }] : [];
        const a = new FakeTransport(clock, (frame) => ({
          kind: 'reply',
          message: resultFor(frame, effects),
          afterMs: REPLY_MS,
        }));
        const reg = registrationOf([
          { id: A, subs: [{ mode: 'intercept', policy: sc.policy, timeoutMs: TIMEOUT_MS }] },
        ]);
        const h = createHarnessWith(optionsFor(clock, reg, { [A]: a }), undefined);
        const caller = new AbortController();
        const p = h.invoke(toolCall(), {
          signal: caller.signal,
          ...(sc.withBudget ? { budgetMs: BUDGET_MS } : {}),
        });
        if (sc.withCancel) {
          void s.schedule(Promise.resolve(), 'cancel').then(() => {
            fired.push('cancel');
            caller.abort();
          });
        }
        let closing: Promise<void> | undefined;
        if (sc.withClose) {
          void s.schedule(Promise.resolve(), 'close').then(() => {
            fired.push('close');
            closing = h.close();
          });
        }
        await s.waitAll();
        const r = await p;
        await closing;

        const endingEvent = { cancelled: 'cancel', closed: 'close', 'budget-expired': 'budget' } as const;
        if (r.interrupted) {
          expect(r.decision).toBe('deny');
          expect(r.ending).toBeDefined();
          expect(fired).toContain(endingEvent[r.ending ?? 'cancelled']);
        } else {
          expect(r.ending).toBeUndefined();
          const record = r.audit[0];
          if (record?.failureClass === 'deadline-exceeded') {
            expect(fired).toContain('deadline');
            expect(r.decision).toBe(sc.policy === 'fail-open' ? 'continue' : 'deny');
            expect(r.synthetic).toBe(sc.policy === 'fail-closed');
            // A reply that came after the deadline only left a note.
            if (fired.indexOf('reply') > fired.indexOf('deadline')) expect(record.lateResponse).toBeDefined();
          } else {
            expect(fired).toContain('reply');
            expect(fired.indexOf('reply')).toBeLessThan(
              fired.includes('deadline') ? fired.indexOf('deadline') : Infinity,
            );
            expect(r.decision).toBe(sc.replyDenies ? 'deny' : 'continue');
            expect(r.synthetic).toBe(false);
          }
        }
        // Whoever fired first decides, when it is an interruption.
        const first = fired[0];
        if (first === 'cancel') expect(r.ending).toBe('cancelled');
        if (first === 'close') expect(r.ending).toBe('closed');
        if (first === 'budget') expect(r.ending).toBe('budget-expired');
        if (first === 'deadline')
          expect(r.interrupted || r.audit[0]?.failureClass === 'deadline-exceeded').toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
