import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../protocol/clock.js';
import { DEFAULT_MAX_FRAME_BYTES } from '../../protocol/ndjson.js';
import { interceptRequest } from '../engine-test-frames.js';
import type { KillSignal, Scenario } from '../model.js';
import { localLink } from './local-link.js';
import { MockCore } from './mock-core.js';
import { runStdioMock, EXIT_NO_SCENARIO, type StdioLink } from './stdio-shell.js';

const line = (eventId: string) => `${JSON.stringify(interceptRequest({ eventId }))}\n`;
const empty = (id: string) =>
  `{"jsonrpc":"2.0","id":"${id}","result":{"protocolVersion":"draft","effects":[]}}\n`;

/** A stream's accumulated bytes, and a promise for the moment they satisfy a predicate. */
function collector(stream: PassThrough) {
  let bytes = Buffer.alloc(0);
  let ended = false;
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  stream.on('data', (c: Buffer) => {
    bytes = Buffer.concat([bytes, c]);
    wake();
  });
  stream.on('end', () => {
    ended = true;
    wake();
  });
  const self = {
    text: () => bytes.toString('utf8'),
    bytes: () => bytes,
    ended: () => ended,
    until(predicate: () => boolean): Promise<void> {
      if (predicate()) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const check = () => (predicate() ? resolve() : waiters.push(check));
        waiters.push(check);
      });
    },
  };
  return self;
}

function fakeProcess(pid = 4242) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let sigterm: (() => void) | undefined;
  let settle!: (end: { code?: number; signal?: KillSignal }) => void;
  const ended = new Promise<{ code?: number; signal?: KillSignal }>((r) => (settle = r));
  const host = {
    stdin,
    stdout,
    stderr,
    pid,
    exit: (code: number) => settle({ code }),
    killSelf: (signal: KillSignal) => settle({ signal }),
    trapSigterm: (handler: () => void) => (sigterm = handler),
  };
  return {
    host,
    out: collector(stdout),
    err: collector(stderr),
    ended,
    sigterm: () => sigterm?.(),
  };
}

async function startMock(scenario: Scenario, clock = new ManualClock(0)) {
  const core = new MockCore(scenario, { clock });
  const proc = fakeProcess();
  await runStdioMock(proc.host, localLink(core), { clock });
  return { ...proc, core, clock };
}

/** Resolves true when `promise` settled before the event loop went idle a few turns. */
async function settledSoon(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
  return done;
}

describe('stdio shell: persistent', () => {
  it('answers each line in order and records the frames under the process id', async () => {
    const m = await startMock({ rules: [] });
    m.host.stdin.write(line('a') + line('b'));
    await m.out.until(() => m.out.text() === empty('a') + empty('b'));
    const inbound = m.core.deliveries();
    expect(inbound.map((r) => [r.eventId, r.delivery, r.connectionId, r.transport])).toEqual([
      ['a', 1, '4242', 'stdio'],
      ['b', 2, '4242', 'stdio'],
    ]);
    expect(inbound[0]?.bytes).toEqual({ text: line('a').trimEnd() });
  });

  it('carries out a delay on the injected clock, and a later frame is not held back', async () => {
    const m = await startMock({
      rules: [
        {
          match: { fields: [{ path: 'id', equals: 'slow' }] },
          behaviour: { kind: 'delay', ms: 50, then: { kind: 'respond' } },
        },
      ],
    });
    m.host.stdin.write(line('slow') + line('fast'));
    await m.out.until(() => m.out.text() === empty('fast'));
    await m.clock.advance(49);
    expect(m.out.text()).toBe(empty('fast'));
    await m.clock.advance(1);
    await m.out.until(() => m.out.text() === empty('fast') + empty('slow'));
    // The recording says when each reply went out: the slow one (delivery 1) 50 ms after its frame arrived.
    const written = m.core
      .recordings({ type: 'outbound' })
      .flatMap((e) => (e.type === 'outbound' && e.action.type === 'write' ? [e.performedAt?.monotonic] : []));
    expect(written).toEqual([50, 0]);
  });

  it('records a framing fault as a frame of its raw bytes and answers it as unparseable', async () => {
    const m = await startMock({ rules: [] });
    m.host.stdin.write(Buffer.from([0x7b, 0xff, 0x7d, 0x0a]));
    await m.out.until(() => m.out.text().endsWith('\n'));
    expect(JSON.parse(m.out.text())).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(m.core.recordings({ type: 'violation' }).map((v) => v.type === 'violation' && v.code)).toEqual([
      'invalid-utf8',
    ]);
    expect(m.core.deliveries()[0]?.bytes).toEqual({
      base64: Buffer.from([0x7b, 0xff, 0x7d]).toString('base64'),
    });
  });

  it('answers a last line that stdin ended without its newline, records an unterminated-frame violation, exits 0', async () => {
    const m = await startMock({ rules: [] });
    m.host.stdin.end(line('a') + line('b').trimEnd());
    expect(await m.ended).toEqual({ code: 0 });
    expect(m.out.text()).toBe(empty('a') + empty('b'));
    const violations = m.core.recordings({ type: 'violation' });
    expect(violations.map((v) => v.type === 'violation' && [v.delivery, v.code])).toEqual([
      [2, 'unterminated-frame'],
    ]);
    expect(m.core.deliveries()[1]).toMatchObject({ kind: 'request', eventId: 'b' });
  });

  it('records a line past the size cap as frame-too-large (not as an empty frame) and keeps serving', async () => {
    const m = await startMock({ rules: [] });
    m.host.stdin.write(`${'x'.repeat(DEFAULT_MAX_FRAME_BYTES + 1)}\n${line('after')}`);
    await m.out.until(() => m.out.text().split('\n').length === 3);
    const [first, second] = m.out.text().split('\n');
    expect(JSON.parse(first ?? '')).toMatchObject({ id: null, error: { code: -32700 } });
    expect(`${second}\n`).toBe(empty('after'));
    const violations = m.core.recordings({ type: 'violation' });
    expect(violations.map((v) => v.type === 'violation' && [v.delivery, v.code])).toEqual([
      [1, 'frame-too-large'],
    ]);
    expect(m.core.deliveries()[0]).toMatchObject({ kind: 'unparseable', bytes: { text: '' } });
  });

  it('closes stdout on a reset and stays alive; later replies are dropped', async () => {
    const m = await startMock({ rules: [{ behaviour: { kind: 'reset' }, times: 1 }] });
    m.host.stdin.write(line('a'));
    await m.out.until(() => m.out.ended());
    m.host.stdin.write(line('b'));
    await m.core.waitForDelivery((r) => r.eventId === 'b', { timeoutMs: 1000 });
    expect(await settledSoon(m.ended)).toBe(false);
    expect(m.out.text()).toBe('');
  });
});

describe('stdio shell: asynchronous links', () => {
  it('steps frames one at a time in arrival order even when the link answers out of order', async () => {
    const core = new MockCore({ rules: [] });
    const local = localLink(core);
    const release: Array<() => void> = [];
    const stepped: string[] = [];
    const link: StdioLink = {
      start: local.start,
      exited: local.exited,
      // A slow first answer: the second frame must not overtake it.
      step: (frame) =>
        new Promise((resolve) => {
          const run = () => {
            stepped.push(Buffer.from(frame.bytes).toString().slice(0, 60));
            resolve({ actions: core.step(frame).actions });
          };
          if (release.length === 0 && stepped.length === 0) release.push(run);
          else run();
        }),
    };
    const proc = fakeProcess();
    await runStdioMock(proc.host, link, { clock: new ManualClock(0) });
    proc.host.stdin.write(line('a') + line('b'));
    await new Promise((r) => setImmediate(r));
    expect(stepped).toEqual([]);
    release[0]?.();
    await proc.out.until(() => proc.out.text() === empty('a') + empty('b'));
    expect(core.deliveries().map((r) => r.eventId)).toEqual(['a', 'b']);
  });
});

describe('stdio shell: in-process links', () => {
  it('steps synchronously once started, and queues frames that arrive before the start completes', async () => {
    const core = new MockCore({ rules: [] });
    const local = localLink(core);
    const calls: string[] = [];
    let finishStart!: () => void;
    const gate = new Promise<void>((r) => (finishStart = r));
    const link: StdioLink = {
      start: async (context) => {
        await gate;
        return local.start(context);
      },
      exited: local.exited,
      step: (frame) => (calls.push('step'), local.step(frame)),
      stepNow: (frame) => (calls.push('stepNow'), local.stepNow?.(frame) ?? { actions: [] }),
    };
    const proc = fakeProcess();
    const running = runStdioMock(proc.host, link, { clock: new ManualClock(0) });
    proc.host.stdin.write(line('early'));
    await new Promise((r) => setImmediate(r));
    finishStart();
    await running;
    await proc.out.until(() => proc.out.text() === empty('early'));
    proc.host.stdin.write(line('late'));
    await proc.out.until(() => proc.out.text() === empty('early') + empty('late'));
    expect(calls).toEqual(['step', 'stepNow']);
  });
});

describe('stdio shell: per_event and process behaviour', () => {
  it('finishes pending actions after EOF, then exits 0', async () => {
    const m = await startMock({ rules: [{ behaviour: { kind: 'delay', ms: 10, then: { kind: 'deny' } } }] });
    m.host.stdin.end(line('a'));
    expect(await settledSoon(m.ended)).toBe(false);
    await m.clock.advance(10);
    await expect(m.ended).resolves.toEqual({ code: 0 });
    expect(JSON.parse(m.out.text()).result.effects[0].type).toBe('deny');
  });

  it('tells its link when stdin reached EOF and how many messages it read, before it exits', async () => {
    const clock = new ManualClock(0);
    const core = new MockCore({ rules: [{ behaviour: { kind: 'silent' } }] }, { clock });
    const proc = fakeProcess();
    const told: string[] = [];
    const link = localLink(core, {
      started: () => undefined,
      exited: () => void told.push('exit'),
      stdinEnded: (pid, report) =>
        void told.push(`eof ${pid} after ${report.messages} at ${report.at.monotonic}`),
    });
    await runStdioMock(proc.host, link, { clock });
    proc.host.stdin.write(line('a'));
    await clock.advance(5);
    expect(await settledSoon(proc.ended)).toBe(false);
    expect(told).toEqual([]);
    proc.host.stdin.end();
    await expect(proc.ended).resolves.toEqual({ code: 0 });
    expect(told).toEqual(['eof 4242 after 1 at 5', 'exit']);
  });

  it('does not end at EOF before its link has the EOF report', async () => {
    const clock = new ManualClock(0);
    const core = new MockCore({ rules: [{ behaviour: { kind: 'silent' } }] }, { clock });
    const proc = fakeProcess();
    const gate = () => {
      let open!: () => void;
      return { opened: new Promise<void>((r) => (open = r)), open: () => open() };
    };
    const stepped = gate();
    const reported = gate();
    // As over the control server: the frame's step is still on its way when stdin ends.
    const { start, step, exited } = localLink(core);
    const link = {
      start,
      exited,
      step: async (frame: Parameters<typeof step>[0]) => {
        await stepped.opened;
        return step(frame);
      },
      stdinEnded: () => reported.opened,
    };
    await runStdioMock(proc.host, link, { clock });
    proc.host.stdin.end(line('a'));
    await new Promise<void>((r) => proc.host.stdin.once('end', r));
    stepped.open();
    await core.waitForDelivery(() => true, { timeoutMs: 1000 });
    expect(await settledSoon(proc.ended)).toBe(false);
    reported.open();
    await expect(proc.ended).resolves.toEqual({ code: 0 });
  });

  it('never exits after EOF while an exchange hangs', async () => {
    const m = await startMock({ rules: [{ behaviour: { kind: 'hang' } }] });
    m.host.stdin.end(line('a'));
    await m.core.waitForDelivery(() => true, { timeoutMs: 1000 });
    await m.clock.advance(60_000);
    expect(await settledSoon(m.ended)).toBe(false);
    expect(m.out.text()).toBe('');
  });

  it('exits with the scripted code after the reply, and dies by a scripted signal', async () => {
    const a = await startMock({
      rules: [{ behaviour: { kind: 'exit', code: 7, reply: { kind: 'respond' } } }],
    });
    a.host.stdin.write(line('a'));
    await expect(a.ended).resolves.toEqual({ code: 7 });
    expect(a.out.text()).toBe(empty('a'));

    const b = await startMock({ rules: [{ behaviour: { kind: 'signal', signal: 'SIGSEGV' } }] });
    b.host.stdin.write(line('a'));
    await expect(b.ended).resolves.toEqual({ signal: 'SIGSEGV' });
    expect(b.out.text()).toBe('');
  });

  it('writes the banner before any reply', async () => {
    const m = await startMock({ rules: [], process: { banner: 'mock ready' } });
    m.host.stdin.write(line('a'));
    await m.out.until(() => m.out.text() === `mock ready\n${empty('a')}`);
    expect(m.core.recordings({ delivery: 0 })).toMatchObject([
      { type: 'outbound', connectionId: '4242', performedAt: { monotonic: 0 } },
    ]);
  });

  it('refuses to start: the message on stderr, the exit code, no stdout', async () => {
    const m = await startMock({
      rules: [],
      process: { refuseToStart: { exitCode: 9, message: 'no licence' } },
    });
    await expect(m.ended).resolves.toEqual({ code: 9 });
    expect(m.err.text()).toBe('no licence\n');
    expect(m.out.text()).toBe('');
  });

  it('ignores SIGTERM when the scenario says so, and otherwise ends cleanly on it (exit 0)', async () => {
    const a = await startMock({ rules: [], process: { ignoreSigterm: true } });
    a.sigterm();
    expect(await settledSoon(a.ended)).toBe(false);
    expect(a.err.text()).toContain('ignoring SIGTERM');

    const b = await startMock({ rules: [] });
    b.sigterm();
    await expect(b.ended).resolves.toEqual({ code: 0 });
  });

  it('reports every exit to the link before ending', async () => {
    const core = new MockCore({ rules: [{ behaviour: { kind: 'exit', code: 4 } }] });
    const reports: unknown[] = [];
    const base = localLink(core);
    const link: StdioLink = { ...base, exited: (r) => (reports.push(r), Promise.resolve()) };
    const proc = fakeProcess();
    await runStdioMock(proc.host, link, { clock: new ManualClock(0) });
    proc.host.stdin.write(line('a'));
    await expect(proc.ended).resolves.toEqual({ code: 4 });
    expect(reports).toEqual([{ code: 4, signal: null }]);
  });

  it('exits with EXIT_NO_SCENARIO and one stderr sentence when the link cannot start', async () => {
    const link: StdioLink = {
      start: () => Promise.reject(new Error('control server http://127.0.0.1:9/ refused the connection')),
      step: () => Promise.resolve({ actions: [] }),
      exited: () => Promise.resolve(),
    };
    const proc = fakeProcess();
    await runStdioMock(proc.host, link, { clock: new ManualClock(0) });
    await expect(proc.ended).resolves.toEqual({ code: EXIT_NO_SCENARIO });
    expect(proc.err.text()).toBe(
      'mock-backend: cannot start: control server http://127.0.0.1:9/ refused the connection\n',
    );
  });
});
