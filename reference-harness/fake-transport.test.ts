import { describe, expect, it } from 'vitest';
import { ManualClock } from '../protocol/clock.js';
import { FakeTransport, resultFor } from './fake-transport.js';
import { advanceBy } from './test-clocks.js';

const frame = JSON.stringify({ jsonrpc: '2.0', id: 'e1', method: 'hooks/intercept', params: {} });

describe('FakeTransport', () => {
  it('replies after its delay and reports both frames', async () => {
    const clock = new ManualClock();
    const t = new FakeTransport(clock, (f) => ({ kind: 'reply', message: resultFor(f, []), afterMs: 5 }));
    const frames: string[] = [];
    const p = t.request(frame, { signal: new AbortController().signal, onFrame: (d) => frames.push(d) });
    await advanceBy(clock, 5);
    const r = await p;
    expect(r.ok && r.message).toEqual({
      jsonrpc: '2.0',
      id: 'e1',
      result: { protocolVersion: 'draft', effects: [] },
    });
    expect(frames).toEqual(['out', 'in']);
    expect(t.requestFrames).toEqual([frame]);
  });

  it('resolves on abort, then reports the late reply', async () => {
    const clock = new ManualClock();
    const t = new FakeTransport(clock, (f) => ({ kind: 'reply', message: resultFor(f, []), afterMs: 10 }));
    const a = new AbortController();
    const late: number[] = [];
    const p = t.request(frame, { signal: a.signal, onLateReply: (raw) => late.push(raw.length) });
    a.abort();
    const r = await p;
    expect(!r.ok && r.failure.failureClass).toBe('deadline-exceeded');
    await advanceBy(clock, 10);
    expect(late).toHaveLength(1);
  });

  it('acknowledges notifications or fails them as scripted', async () => {
    const clock = new ManualClock();
    const t = new FakeTransport(
      clock,
      () => ({ kind: 'hang' }),
      (_f, n) => (n === 1 ? { kind: 'fail', failureClass: 'connection', code: 'x' } : { kind: 'ack' }),
    );
    const ctx = { signal: new AbortController().signal };
    const first = t.notify('{}', ctx);
    await advanceBy(clock, 0);
    expect(await first).toEqual({
      ok: false,
      failure: { failureClass: 'connection', code: 'x', detail: 'fake failure' },
    });
    const second = t.notify('{}', ctx);
    await advanceBy(clock, 0);
    expect(await second).toEqual({ ok: true });
  });
});
