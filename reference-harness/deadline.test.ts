import { describe, expect, it } from 'vitest';
import { ManualClock } from '../protocol/clock.js';
import { LaggingClock } from './test-clocks.js';
import { startCallBudget } from './budget.js';
import { startSubscriptionDeadline } from './deadline.js';
import { DeadlineExpired } from './interruption.js';

describe('startSubscriptionDeadline', () => {
  it('expires on its own timeout when it is shorter than the budget', async () => {
    const clock = new ManualClock();
    const call = startCallBudget({ clock, budgetMs: 1000 });
    const d = startSubscriptionDeadline(clock, call, 100);
    expect(d.deadlineAt).toBe(100);
    await clock.advance(99);
    expect(d.check()).toBeUndefined();
    await clock.advance(1);
    expect(d.signal.reason).toBeInstanceOf(DeadlineExpired);
    expect(d.check()).toBe('deadline');
    expect(call.ending()).toBeUndefined();
  });

  it('takes the remaining budget as its end when that is earlier, and reports the budget', async () => {
    const clock = new ManualClock();
    const call = startCallBudget({ clock, budgetMs: 150 });
    await clock.advance(100);
    const d = startSubscriptionDeadline(clock, call, 100);
    expect(d.deadlineAt).toBe(150);
    await clock.advance(50);
    expect(d.check()).toBe('budget-expired');
  });

  it('lets the budget win a tie', async () => {
    const clock = new ManualClock();
    const call = startCallBudget({ clock, budgetMs: 100 });
    const d = startSubscriptionDeadline(clock, call, 100);
    await clock.advance(100);
    expect(d.check()).toBe('budget-expired');
  });

  it('refuses work past the deadline even before the timer callback ran', () => {
    const clock = new LaggingClock();
    const call = startCallBudget({ clock });
    const d = startSubscriptionDeadline(clock, call, 100);
    clock.time = 100;
    expect(d.signal.aborted).toBe(false);
    expect(d.check()).toBe('deadline');
    expect(d.signal.aborted).toBe(true);
  });

  it('inherits cancellation and shutdown from the call', () => {
    const clock = new ManualClock();
    const caller = new AbortController();
    const call = startCallBudget({ clock, signal: caller.signal });
    const d = startSubscriptionDeadline(clock, call, 100);
    caller.abort();
    expect(d.signal.aborted).toBe(true);
    expect(d.check()).toBe('cancelled');
    const late = startSubscriptionDeadline(clock, call, 100);
    expect(late.check()).toBe('cancelled');
  });

  it('dispose cancels its timer', () => {
    const clock = new ManualClock();
    const call = startCallBudget({ clock });
    const d = startSubscriptionDeadline(clock, call, 100);
    expect(clock.pendingSleeps).toBe(1);
    d.dispose();
    expect(clock.pendingSleeps).toBe(0);
  });
});
