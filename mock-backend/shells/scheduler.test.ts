import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../protocol/clock.js';
import type { Action } from '../model.js';
import { runActions } from './scheduler.js';

const bytes = (text: string) => new TextEncoder().encode(text);

function recorder(clock: ManualClock) {
  const seen: Array<[number, string]> = [];
  return {
    seen,
    perform: (a: Action) => {
      seen.push([clock.now(), a.type === 'write' ? `write:${Buffer.from(a.bytes).toString()}` : a.type]);
    },
  };
}

describe('runActions', () => {
  it('runs due actions synchronously within the call, in list order', () => {
    const clock = new ManualClock(100);
    const { seen, perform } = recorder(clock);
    const actions: Action[] = [
      { type: 'write', afterMs: 0, bytes: bytes('a') },
      { type: 'write', afterMs: 0, bytes: bytes('b') },
      { type: 'end', afterMs: 0 },
    ];
    void runActions(actions, { clock, arrival: 100, perform });
    expect(seen).toEqual([
      [100, 'write:a'],
      [100, 'write:b'],
      [100, 'end'],
    ]);
  });

  it('waits for each offset from the arrival, not from the previous action', async () => {
    const clock = new ManualClock(0);
    const { seen, perform } = recorder(clock);
    const actions: Action[] = [
      { type: 'write', afterMs: 20, bytes: bytes('x') },
      { type: 'write', afterMs: 50, bytes: bytes('y') },
      { type: 'end', afterMs: 50 },
    ];
    // The frame arrived at 0; the shell got round to it at 5 (e.g. after a control round trip).
    await clock.advanceTo(5);
    const run = runActions(actions, { clock, arrival: 0, perform });
    await clock.advanceTo(19);
    expect(seen).toEqual([]);
    await clock.advanceTo(20);
    expect(seen).toEqual([[20, 'write:x']]);
    await clock.advanceTo(60);
    await expect(run).resolves.toBe('done');
    expect(seen).toEqual([
      [20, 'write:x'],
      [50, 'write:y'],
      [50, 'end'],
    ]);
  });

  it('reports a hang, and still carries out what follows it', async () => {
    const clock = new ManualClock(0);
    const { seen, perform } = recorder(clock);
    const outcome = await runActions(
      [
        { type: 'hang', afterMs: 0 },
        { type: 'log', afterMs: 0, text: 'after' },
      ],
      { clock, arrival: 0, perform },
    );
    expect(outcome).toBe('hung');
    expect(seen.map((s) => s[1])).toEqual(['hang', 'log']);
  });

  it('stops when the signal aborts during a wait, and never runs the rest', async () => {
    const clock = new ManualClock(0);
    const { seen, perform } = recorder(clock);
    const controller = new AbortController();
    const run = runActions(
      [
        { type: 'write', afterMs: 0, bytes: bytes('a') },
        { type: 'write', afterMs: 30, bytes: bytes('b') },
      ],
      { clock, arrival: 0, perform, signal: controller.signal },
    );
    controller.abort();
    await expect(run).resolves.toBe('stopped');
    await clock.advanceTo(100);
    expect(seen.map((s) => s[1])).toEqual(['write:a']);
  });

  it('awaits an action that returns a promise before the next one (a flush before exit)', async () => {
    const clock = new ManualClock(0);
    const order: string[] = [];
    let flush!: () => void;
    const run = runActions(
      [
        { type: 'write', afterMs: 0, bytes: bytes('a') },
        { type: 'exit', afterMs: 0, code: 3 },
      ],
      {
        clock,
        arrival: 0,
        perform: (a) => {
          order.push(a.type);
          if (a.type === 'write') return new Promise<void>((r) => (flush = r));
          return undefined;
        },
      },
    );
    await Promise.resolve();
    expect(order).toEqual(['write']);
    flush();
    await expect(run).resolves.toBe('done');
    expect(order).toEqual(['write', 'exit']);
  });

  it('tells each carried-out action by its index, after it ran, and none a stopped run never reached', async () => {
    const clock = new ManualClock(0);
    const told: Array<[number, number]> = [];
    const controller = new AbortController();
    let flush!: () => void;
    const run = runActions(
      [
        { type: 'head', afterMs: 0, status: 200, headers: {} },
        { type: 'write', afterMs: 10, bytes: bytes('a') },
        { type: 'reset', afterMs: 10 },
        { type: 'end', afterMs: 40 },
      ],
      {
        clock,
        arrival: 0,
        // The reset is carried out once its flush is over, and told only then, with when it began.
        perform: (a) => (a.type === 'reset' ? new Promise<void>((r) => (flush = r)) : undefined),
        performed: (index, startedAt) => told.push([index, startedAt]),
        signal: controller.signal,
      },
    );
    expect(told).toEqual([[0, 0]]);
    await clock.advanceTo(10);
    expect(told).toEqual([
      [0, 0],
      [1, 10],
    ]);
    await clock.advanceTo(12);
    expect(told).toHaveLength(2);
    flush();
    await new Promise((r) => setImmediate(r));
    expect(told.at(-1)).toEqual([2, 10]);
    controller.abort();
    await expect(run).resolves.toBe('stopped');
    await clock.advanceTo(100);
    expect(told.map(([index]) => index)).toEqual([0, 1, 2]);
  });

  it('turns a failing perform into a stopped run instead of a rejection', async () => {
    const clock = new ManualClock(0);
    const outcome = await runActions([{ type: 'end', afterMs: 0 }], {
      clock,
      arrival: 0,
      perform: () => {
        throw new Error('EPIPE');
      },
    });
    expect(outcome).toBe('stopped');
  });
});
