import { describe, expect, it } from 'vitest';
import { SerialQueue } from './serial-queue.js';

const live = () => new AbortController().signal;

describe('SerialQueue', () => {
  it('admits one holder at a time in arrival order', async () => {
    const q = new SerialQueue();
    const order: string[] = [];
    const first = await q.acquire(live());
    const second = q.acquire(live()).then((r) => (order.push('second'), r));
    const third = q.acquire(live()).then((r) => (order.push('third'), r));
    expect(q.waiting).toBe(2);
    first?.();
    (await second)?.();
    (await third)?.();
    expect(order).toEqual(['second', 'third']);
    // Released twice is harmless and the lock is free again.
    first?.();
    expect(await q.acquire(live())).toBeTypeOf('function');
  });

  it('lets an aborted waiter leave the line at once without losing the lock', async () => {
    const q = new SerialQueue();
    const holder = await q.acquire(live());
    const c = new AbortController();
    const waiting = q.acquire(c.signal);
    const after = q.acquire(live());
    c.abort();
    expect(await waiting).toBeUndefined();
    expect(q.waiting).toBe(1);
    holder?.();
    expect(await after).toBeTypeOf('function');
  });

  it('refuses an already aborted signal and turns everyone away after close', async () => {
    const q = new SerialQueue();
    const c = new AbortController();
    c.abort();
    expect(await q.acquire(c.signal)).toBeUndefined();
    await q.acquire(live());
    const waiting = q.acquire(live());
    q.close();
    expect(await waiting).toBeUndefined();
    expect(await q.acquire(live())).toBeUndefined();
  });

  it('tryAcquire takes a free lock at once and never jumps a holder or a closed queue', async () => {
    const q = new SerialQueue();
    const first = q.tryAcquire();
    expect(first).toBeTypeOf('function');
    expect(q.tryAcquire()).toBeUndefined();
    const queued = q.acquire(live());
    first?.();
    // The waiter got the lock on release, so it is still not free.
    expect(q.tryAcquire()).toBeUndefined();
    (await queued)?.();
    const again = q.tryAcquire();
    expect(again).toBeTypeOf('function');
    again?.();
    q.close();
    expect(q.tryAcquire()).toBeUndefined();
  });
});
