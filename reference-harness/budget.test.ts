import { describe, expect, it } from 'vitest';
import { ManualClock } from '../protocol/clock.js';
import { LaggingClock } from './test-clocks.js';
import { startCallBudget } from './budget.js';
import { CallInterrupted } from './interruption.js';

describe('startCallBudget', () => {
  it('has no deadline and never expires without budgetMs', async () => {
    const clock = new ManualClock();
    const budget = startCallBudget({ clock });
    expect(budget.deadlineAt).toBe(Infinity);
    await clock.advance(1e9);
    expect(budget.ending()).toBeUndefined();
    expect(budget.remainingMs()).toBe(Infinity);
    budget.dispose();
  });

  it('expires on its own timer and reports budget-expired', async () => {
    const clock = new ManualClock(50);
    const budget = startCallBudget({ clock, budgetMs: 100 });
    expect(budget.deadlineAt).toBe(150);
    await clock.advance(99);
    expect(budget.signal.aborted).toBe(false);
    expect(budget.remainingMs()).toBe(1);
    await clock.advance(1);
    expect(budget.signal.aborted).toBe(true);
    expect(budget.signal.reason).toBeInstanceOf(CallInterrupted);
    expect(budget.ending()).toBe('budget-expired');
    expect(budget.remainingMs()).toBe(0);
  });

  it('notices an expired budget through the clock before its timer fires', () => {
    // A clock whose timers lag behind its time: the check must still see the expiry.
    const clock = new LaggingClock();
    const budget = startCallBudget({ clock, budgetMs: 10 });
    clock.time = 10;
    expect(budget.ending()).toBe('budget-expired');
    expect(budget.signal.aborted).toBe(true);
  });

  it('tells explicit cancellation from expiry, and the first ending wins', async () => {
    const clock = new ManualClock();
    const caller = new AbortController();
    const budget = startCallBudget({ clock, budgetMs: 100, signal: caller.signal });
    caller.abort();
    expect(budget.ending()).toBe('cancelled');
    await clock.advance(200);
    expect(budget.ending()).toBe('cancelled');
    expect(clock.pendingSleeps).toBe(0);
  });

  it('reports shutdown as closed', () => {
    const clock = new ManualClock();
    const close = new AbortController();
    const budget = startCallBudget({ clock, closeSignal: close.signal });
    close.abort();
    expect(budget.ending()).toBe('closed');
  });

  it('ends at once for an already-aborted signal or a zero budget', () => {
    const clock = new ManualClock();
    const aborted = AbortSignal.abort();
    expect(startCallBudget({ clock, signal: aborted }).ending()).toBe('cancelled');
    expect(startCallBudget({ clock, budgetMs: 0 }).ending()).toBe('budget-expired');
    expect(startCallBudget({ clock, signal: aborted, closeSignal: aborted }).ending()).toBe('closed');
    expect(clock.pendingSleeps).toBe(0);
  });

  it('dispose stops the timer and detaches from the caller signal', async () => {
    const clock = new ManualClock();
    const caller = new AbortController();
    const budget = startCallBudget({ clock, budgetMs: 100, signal: caller.signal });
    budget.dispose();
    expect(clock.pendingSleeps).toBe(0);
    caller.abort();
    expect(budget.signal.aborted).toBe(false);
  });
});
