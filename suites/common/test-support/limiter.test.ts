import { describe, expect, it } from 'vitest';
import { limiter } from './limiter.js';

/** A promise and the function that resolves it. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Lets every queued continuation run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('limiter', () => {
  it('runs at most `slots` at once, in arrival order, and frees a slot when work fails', async () => {
    const slot = limiter(2);
    const started: number[] = [];
    const gates = [gate(), gate(), gate(), gate()];
    const runs = gates.map((g, i) =>
      slot(async () => {
        started.push(i);
        await g.promise;
        if (i === 0) throw new Error('first fails');
        return i;
      }),
    );
    await settle();
    expect(started).toEqual([0, 1]);
    gates[0]?.open();
    await expect(runs[0]).rejects.toThrow('first fails');
    await settle();
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    expect(await Promise.all(runs.slice(1))).toEqual([1, 2, 3]);
  });
});
