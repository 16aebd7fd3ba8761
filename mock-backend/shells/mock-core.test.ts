import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../protocol/clock.js';
import {
  frameOf,
  interceptRequest,
  observeNotification,
  runFrames,
  writtenText,
} from '../engine-test-frames.js';
import { attemptCount } from '../attempt-counts.js';
import type { Scenario } from '../model.js';
import { DeliveryTimeout, MockCore } from './mock-core.js';

const failTwice: Scenario = {
  rules: [
    {
      behaviour: {
        kind: 'sequence',
        steps: [
          { kind: 'rpc-error', code: -32003 },
          { kind: 'rpc-error', code: -32003 },
          { kind: 'respond' },
        ],
      },
    },
  ],
};

async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 3; i++) await new Promise<void>((r) => setImmediate(r));
  return done;
}

describe('MockCore', () => {
  it('records the same entries whether they are read between steps, listened to, or read at the end', () => {
    // Deliveries are kept compact and their entries built on read: whenever that happens, the
    // entries must be those the engine gives for the frame (exact bytes, ids, violations, actions).
    const frames = [
      frameOf(interceptRequest({ eventId: 'a' })),
      frameOf(interceptRequest({ eventId: 'b' }), 'http', {
        http: { method: 'POST', path: '/hook', headers: { 'content-type': 'text/plain', 'x-n': '1' } },
      }),
      frameOf(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])),
      frameOf({ ...interceptRequest({ eventId: 'c' }), id: 'not-c' }),
      frameOf(observeNotification('d')),
      frameOf(interceptRequest({ eventId: 'a' })),
    ];
    const expected = JSON.parse(JSON.stringify(runFrames(failTwice, frames).flatMap((r) => r.records)));
    const atEnd = new MockCore(failTwice);
    const between = new MockCore(failTwice);
    const listened = new MockCore(failTwice);
    const heard: unknown[] = [];
    listened.onRecord((e) => heard.push(e));
    for (const [i, frame] of frames.entries()) {
      atEnd.step(frame);
      between.step(frame);
      listened.step(frame);
      if (i % 2 === 0) expect(between.recordings().length).toBeGreaterThan(0);
    }
    const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;
    expect(json(atEnd.recordings())).toEqual(expected);
    expect(json(between.recordings())).toEqual(expected);
    expect(json(listened.recordings())).toEqual(expected);
    expect(json(heard)).toEqual(expected);
    expect(expected.filter((e: { type: string }) => e.type === 'violation').length).toBeGreaterThanOrEqual(3);
    expect(atEnd.deliveries().map((d) => [d.eventId, d.attempt])).toEqual([
      ['a', 1],
      ['b', 1],
      [undefined, 1],
      ['c', 1],
      ['d', 1],
      ['a', 2],
    ]);
  });

  it('shares attempt counting across connections and transports', () => {
    const core = new MockCore(failTwice);
    const frame = (transport: 'stdio' | 'http', connectionId: string) => ({
      ...frameOf(interceptRequest({ eventId: 'e' }), transport),
      connectionId,
    });
    core.step(frame('stdio', '101'));
    core.step(frame('stdio', '102'));
    core.step(frame('http', 'c1'));
    expect(core.deliveries().map((r) => [r.connectionId, r.attempt, r.behaviour.kind])).toEqual([
      ['101', 1, 'rpc-error'],
      ['102', 2, 'rpc-error'],
      ['c1', 3, 'respond'],
    ]);
  });

  it('counts attempts in step order, and records what the engine records stepped one at a time', () => {
    const plain: Scenario = { rules: [{ match: { toolName: 'Slow' }, behaviour: { kind: 'deny' } }] };
    const ids = ['a', 'a', 'b', 'a', 'b'];
    const readAfterEach = new MockCore(plain);
    const readAtEnd = new MockCore(plain);
    for (const id of ids) {
      const stepped = readAfterEach.step(frameOf(interceptRequest({ eventId: id })));
      expect(stepped.actions.some((a) => a.type === 'write')).toBe(true);
      expect(readAfterEach.deliveries().at(-1)?.eventId).toBe(id);
      readAtEnd.step(frameOf(interceptRequest({ eventId: id })));
    }
    const counts = readAtEnd.engineState.attempts;
    expect(['a', 'b'].map((id) => attemptCount(counts, 'hooks/intercept', id))).toEqual([3, 2]);
    for (const core of [readAfterEach, readAtEnd]) {
      expect(core.deliveries().map((r) => [r.delivery, r.eventId, r.attempt])).toEqual([
        [1, 'a', 1],
        [2, 'a', 2],
        [3, 'b', 1],
        [4, 'a', 3],
        [5, 'b', 2],
      ]);
    }
    // The records match the engine's, stepped and settled one at a time.
    const expected = runFrames(
      plain,
      ids.map((id) => frameOf(interceptRequest({ eventId: id }))),
    ).flatMap((r) => r.records);
    expect(JSON.parse(JSON.stringify(readAfterEach.recordings()))).toEqual(
      JSON.parse(JSON.stringify(expected)),
    );
  });

  it('reads a scenario changed in place and set again as it is now (a sequence added plays by attempt)', () => {
    const scenario: Scenario = { rules: [{ behaviour: { kind: 'respond' } }] };
    const core = new MockCore(scenario);
    core.step(frameOf(interceptRequest({ eventId: 'a' })));
    (scenario.rules[0] as { behaviour: unknown }).behaviour = {
      kind: 'sequence',
      steps: [{ kind: 'rpc-error', code: -32003 }, { kind: 'deny' }],
    };
    core.setScenario(scenario);
    // The replies themselves, not only the recording (which plans again with the counted attempt).
    const replies = [1, 2].map((): string =>
      writtenText(core.step(frameOf(interceptRequest({ eventId: 'b' }))).actions),
    );
    expect(replies[0]).toContain('"code":-32003');
    expect(replies[1]).toContain('"type":"deny"');
    expect(core.deliveries().map((r) => r.behaviour.kind)).toEqual(['respond', 'rpc-error', 'deny']);
  });

  it('settles a pending step before a listener joins, so it hears only later deliveries', () => {
    const core = new MockCore({ rules: [] });
    core.step(frameOf(interceptRequest({ eventId: 'before' })));
    const heard: string[] = [];
    core.onRecord((e) => {
      if (e.type === 'inbound') heard.push(String(e.eventId));
    });
    core.step(frameOf(interceptRequest({ eventId: 'after' })));
    expect(heard).toEqual(['after']);
  });

  it('filters recordings by event id (with their outbound entries), type, transport and connection', () => {
    const core = new MockCore({ rules: [] });
    core.step(frameOf(interceptRequest({ eventId: 'a' })));
    core.step(frameOf(interceptRequest({ eventId: 'b' }), 'http'));
    const forA = core.recordings({ eventId: 'a' });
    expect(forA.map((e) => e.type)).toEqual(['inbound', 'outbound', 'outbound']);
    expect(forA.every((e) => e.delivery === 1)).toBe(true);
    expect(core.recordings({ transport: 'http', type: 'inbound' })).toHaveLength(1);
    expect(core.recordings({ connectionId: 'c1' }).every((e) => e.transport === 'http')).toBe(true);
    expect(core.recordings({ method: 'hooks/intercept' })).toHaveLength(2);
  });

  it('reset forgets recordings and attempts; setScenario keeps recordings but restarts counting', () => {
    const core = new MockCore(failTwice);
    core.step(frameOf(interceptRequest({ eventId: 'e' })));
    core.setScenario(failTwice);
    core.step(frameOf(interceptRequest({ eventId: 'e' })));
    expect(core.deliveries().map((r) => r.attempt)).toEqual([1, 1]);
    core.reset();
    expect(core.recordings()).toEqual([]);
    core.step(frameOf(interceptRequest({ eventId: 'e' })));
    expect(core.deliveries().map((r) => [r.delivery, r.attempt])).toEqual([[1, 1]]);
  });

  it('setScenario with keepState goes on counting attempts and rule firings', () => {
    const once = (kind: 'deny' | 'hang'): Scenario => ({
      rules: [{ behaviour: { kind }, times: 1 }, { behaviour: failTwice.rules[0]!.behaviour }],
    });
    const core = new MockCore(once('deny'));
    core.step(frameOf(interceptRequest({ eventId: 'e' })));
    core.setScenario(once('hang'), { keepState: true });
    // Rule 1 fired before the swap: the frame goes to rule 2, whose sequence is at attempt 2.
    const second = core.step(frameOf(interceptRequest({ eventId: 'e' })));
    expect(writtenText(second.actions)).toContain('-32003');
    expect(core.deliveries().map((r) => [r.delivery, r.attempt, r.rule])).toEqual([
      [1, 1, 0],
      [2, 2, 1],
    ]);
  });

  it('notes when actions were carried out, whether the delivery was read before, after or listened to', async () => {
    const clock = new ManualClock(100);
    const slow: Scenario = { rules: [{ behaviour: { kind: 'delay', ms: 30, then: { kind: 'respond' } } }] };
    const performedAt = (core: MockCore) =>
      core
        .recordings({ type: 'outbound' })
        .map((e) => (e.type === 'outbound' ? e.performedAt : 'not outbound'));
    for (const read of ['after', 'between', 'listened'] as const) {
      const core = new MockCore(slow, { clock });
      if (read === 'listened') core.onRecord(() => undefined);
      const epoch = core.epoch;
      const { delivery, actions } = core.step(
        frameOf(interceptRequest({ eventId: 'a' }), 'stdio', { at: clock.now() }),
      );
      expect(actions.map((a) => a.type)).toEqual(['write', 'end']);
      if (read === 'between') expect(performedAt(core)).toEqual([undefined, undefined]);
      await clock.advance(30);
      // The write began at 130 and is noted a moment later: the note keeps when it began.
      const began = { monotonic: clock.now(), wall: clock.wallNow() };
      await clock.advance(2);
      core.performed(delivery, epoch, '1', 0, 1, began.monotonic);
      expect(performedAt(core), read).toEqual([began, undefined]);
      core.performed(delivery, epoch, '1', 1, 1, clock.now());
      expect(performedAt(core), read).toEqual([began, { monotonic: clock.now(), wall: clock.wallNow() }]);
    }
  });

  it('drops what a delivery forgotten by a reset carried out, and keeps process starts apart', () => {
    const clock = new ManualClock(0);
    const core = new MockCore({ rules: [], process: { banner: 'hi' } }, { clock });
    const before = core.epoch;
    const old = core.step(frameOf(interceptRequest({ eventId: 'old' })));
    const noteOld = core.performedFor(old.delivery, '4242');
    core.reset();
    expect(core.epoch).not.toBe(before);
    const fresh = core.step(frameOf(interceptRequest({ eventId: 'new' })));
    // The same delivery number after the reset: only the note made under the new epoch counts.
    expect(fresh.delivery).toBe(old.delivery);
    core.performed(old.delivery, before, '1', 0, 1, clock.now());
    noteOld(0, clock.now());
    expect(core.recordings({ type: 'outbound' })[0]).not.toHaveProperty('performedAt');
    core.performedFor(fresh.delivery, '4242')(0, clock.now());
    expect(core.recordings({ type: 'outbound' })[0]).toHaveProperty('performedAt');

    // Every stdio process has a start of its own, delivery 0: a note names its process.
    for (const connectionId of ['7', '8']) core.start({ transport: 'stdio', connectionId, at: core.now() });
    core.performed(0, core.epoch, '8', 0, 1, clock.now());
    const starts = core.recordings({ delivery: 0 });
    expect(starts.map((e) => [e.connectionId, 'performedAt' in e])).toEqual([
      ['7', false],
      ['8', true],
    ]);
  });

  it('setScenario goes on numbering deliveries, so the kept recording never repeats a number', () => {
    const core = new MockCore({ rules: [] });
    core.step(frameOf(interceptRequest({ eventId: 'a' })));
    core.setScenario({ rules: [] });
    core.step(frameOf(interceptRequest({ eventId: 'b' })));
    expect(core.deliveries().map((r) => [r.eventId, r.delivery])).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
  });

  it('waitForDelivery resolves with a past or a future match', async () => {
    const core = new MockCore({ rules: [] });
    core.step(frameOf(interceptRequest({ eventId: 'a' })));
    await expect(core.waitForDelivery((r) => r.eventId === 'a', { timeoutMs: 10 })).resolves.toMatchObject({
      eventId: 'a',
    });
    const later = core.waitForDelivery((r) => r.eventId === 'b', { timeoutMs: 1000 });
    core.step(frameOf(interceptRequest({ eventId: 'b' })));
    await expect(later).resolves.toMatchObject({ eventId: 'b', delivery: 2 });
  });

  it('waitForDelivery times out on the core clock, and a throwing predicate rejects the wait', async () => {
    const clock = new ManualClock(0);
    const core = new MockCore({ rules: [] }, { clock });
    const wait = core
      .waitForDelivery((r) => r.eventId === 'never', { timeoutMs: 100 })
      .catch((e: unknown) => e);
    core.step(frameOf(interceptRequest({ eventId: 'other' })));
    await clock.advance(99);
    expect(await settled(wait)).toBe(false);
    await clock.advance(1);
    const error = await wait;
    expect(error).toBeInstanceOf(DeliveryTimeout);
    expect((error as Error).message).toContain('within 100 ms (1 deliveries seen)');

    const bad = core.waitForDelivery(
      () => {
        throw new Error('predicate bug');
      },
      { timeoutMs: 100 },
    );
    await expect(bad).rejects.toThrow('predicate bug');
    expect(clock.pendingSleeps).toBe(0);
  });
});
