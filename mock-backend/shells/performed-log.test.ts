import { describe, expect, it } from 'vitest';
import { PerformedLog, type PerformedAction } from './performed-log.js';

describe('PerformedLog', () => {
  it('hands on every noted action in order, runs spread into single actions, past its first allocation', () => {
    const log = new PerformedLog();
    const expected: PerformedAction[] = [];
    for (let i = 0; i < 300; i++) {
      // Every tenth is a process start, which names its process; the rest are runs of 1-3 actions.
      const delivery = i % 10 === 0 ? 0 : i;
      const count = (i % 3) + 1;
      log.add(delivery, 1, count, i + 0.5, 1e12 + i, `p${i}`);
      for (let k = 0; k < count; k++) {
        expected.push({
          delivery,
          connectionId: delivery === 0 ? `p${i}` : undefined,
          index: 1 + k,
          at: { monotonic: i + 0.5, wall: 1e12 + i },
        });
      }
    }
    expect(log.length).toBe(300);
    const seen: PerformedAction[] = [];
    log.drain((p) => seen.push(p));
    expect(seen).toEqual(expected);
    expect(log.length).toBe(0);
    log.drain(() => expect.unreachable('drained twice'));
  });
});
