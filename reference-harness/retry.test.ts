import { describe, expect, it } from 'vitest';
import { ManualClock } from '../protocol/clock.js';
import { startCallBudget } from './budget.js';
import { startSubscriptionDeadline } from './deadline.js';
import { runWithRetries } from './retry.js';
import { advanceBy } from './test-clocks.js';

type R = 'fail' | 'ok';

function setup(timeoutMs: number, budgetMs?: number) {
  const clock = new ManualClock();
  const caller = new AbortController();
  const call = startCallBudget({
    clock,
    signal: caller.signal,
    ...(budgetMs === undefined ? {} : { budgetMs }),
  });
  const deadline = startSubscriptionDeadline(clock, call, timeoutMs);
  return { clock, caller, deadline };
}

describe('runWithRetries', () => {
  it('sends once by default and returns the value', async () => {
    const { clock, deadline } = setup(100);
    const sent: number[] = [];
    const run = await runWithRetries<R>({
      clock,
      deadline,
      retries: 0,
      backoffMs: 0,
      attempt: async (n) => (sent.push(n), 'fail'),
      isFailure: (r) => r === 'fail',
    });
    expect(run).toEqual({ attempts: 1, last: 'fail' });
    expect(sent).toEqual([1]);
  });

  it('never retries a success', async () => {
    const { clock, deadline } = setup(100);
    const run = await runWithRetries<R>({
      clock,
      deadline,
      retries: 5,
      backoffMs: 0,
      attempt: async () => 'ok',
      isFailure: (r) => r === 'fail',
    });
    expect(run).toEqual({ attempts: 1, last: 'ok' });
  });

  it('retries failures up to the count, with backoff inside the deadline', async () => {
    const { clock, deadline } = setup(100);
    const at: number[] = [];
    const p = runWithRetries<R>({
      clock,
      deadline,
      retries: 2,
      backoffMs: 10,
      attempt: async () => (at.push(clock.now()), 'fail'),
      isFailure: (r) => r === 'fail',
    });
    await advanceBy(clock, 30);
    expect(await p).toEqual({ attempts: 3, last: 'fail' });
    expect(at).toEqual([0, 10, 20]);
  });

  it('starts no retry whose backoff would reach the deadline', async () => {
    const { clock, deadline } = setup(25);
    const at: number[] = [];
    const p = runWithRetries<R>({
      clock,
      deadline,
      retries: 10,
      backoffMs: 10,
      attempt: async () => (at.push(clock.now()), 'fail'),
      isFailure: (r) => r === 'fail',
    });
    await advanceBy(clock, 100);
    // At 20 the next backoff would end at 30, past the deadline at 25: the run stops there.
    expect(await p).toEqual({ attempts: 3, last: 'fail' });
    expect(at).toEqual([0, 10, 20]);
  });

  it('cuts a pending attempt at the deadline and never accepts its value', async () => {
    const { clock, deadline } = setup(50);
    const p = runWithRetries<R>({
      clock,
      deadline,
      retries: 0,
      backoffMs: 0,
      attempt: () => clock.sleep(80).then(() => 'ok' as const),
      isFailure: (r) => r === 'fail',
    });
    await advanceBy(clock, 50);
    expect(await p).toEqual({ attempts: 1, stopped: 'deadline' });
  });

  it('reports cancellation during a backoff as the call ending', async () => {
    const { clock, caller, deadline } = setup(100);
    const p = runWithRetries<R>({
      clock,
      deadline,
      retries: 3,
      backoffMs: 20,
      attempt: async () => 'fail',
      isFailure: (r) => r === 'fail',
    });
    await advanceBy(clock, 5);
    caller.abort();
    expect(await p).toEqual({ attempts: 1, last: 'fail', stopped: 'cancelled' });
  });

  it('sends nothing when the call already ended', async () => {
    const clock = new ManualClock();
    const call = startCallBudget({ clock, budgetMs: 0 });
    const deadline = startSubscriptionDeadline(clock, call, 100);
    let sends = 0;
    const run = await runWithRetries<R>({
      clock,
      deadline,
      retries: 3,
      backoffMs: 0,
      attempt: async () => (sends++, 'ok'),
      isFailure: () => false,
    });
    expect(run).toEqual({ attempts: 0, stopped: 'budget-expired' });
    expect(sends).toBe(0);
  });
});
