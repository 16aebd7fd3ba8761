import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock, systemClock } from '../../protocol/clock.js';
import type { NdjsonItem } from '../../protocol/ndjson.js';
import { Cancellation } from '../cancellation.js';
import { TranscriptRecorder } from '../transcript.js';
import {
  TEST_BACKEND_MARGINS,
  STDIO_BACKEND,
  handleCounts,
  notificationFrame,
  recordingContext,
  requestFrame,
} from '../test-backends/helpers.js';
import type { BackendTransport, TransportReply } from '../transport.js';
import { HarnessSendContext } from './abortable.js';
import { createPersistentStdioTransport } from './stdio-persistent.js';
import { processAlive } from '../../protocol/process-alive.js';

const open: BackendTransport[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

function backend(
  args: string[],
  extra: {
    maxFrameBytes?: number;
    command?: string;
    env?: Record<string, string>;
    isNoise?: (item: NdjsonItem) => boolean;
    startupMs?: number;
    replyMatching?: 'by-id' | 'next-frame';
  } = {},
) {
  const t = createPersistentStdioTransport({
    command: extra.command ?? process.execPath,
    args: extra.command ? args : [STDIO_BACKEND, ...args],
    env: extra.env ?? {},
    clock: systemClock,
    killGraceMs: TEST_BACKEND_MARGINS.killGraceMs,
    ...(extra.maxFrameBytes === undefined ? {} : { maxFrameBytes: extra.maxFrameBytes }),
    ...(extra.isNoise === undefined ? {} : { isNoise: extra.isNoise }),
    ...(extra.startupMs === undefined ? {} : { startupMs: extra.startupMs }),
    ...(extra.replyMatching === undefined ? {} : { replyMatching: extra.replyMatching }),
  });
  open.push(t);
  return t;
}

function expectOk(reply: TransportReply): Record<string, unknown> {
  if (!reply.ok) throw new Error(`expected a reply, got ${JSON.stringify(reply.failure)}`);
  return reply.message as Record<string, unknown>;
}

function expectFailure(reply: TransportReply, failureClass: string, code: string): string {
  if (reply.ok) throw new Error(`expected ${code}, got ${JSON.stringify(reply.message)}`);
  expect(reply.failure).toMatchObject({ failureClass, code });
  return reply.failure.detail;
}

const onlyPid = (t: BackendTransport) => {
  const pids = t.livePids();
  expect(pids).toHaveLength(1);
  return pids[0] as number;
};

describe('persistent stdio transport', () => {
  it('serves many requests from one lazily spawned process and records the transcript', async () => {
    const t = backend(['echo']);
    expect(t.livePids()).toEqual([]);
    const ctx = recordingContext();
    expect(expectOk(await t.request(requestFrame(1), ctx))).toMatchObject({ id: 1, result: { effects: [] } });
    const pid = onlyPid(t);
    const deny = expectOk(await t.request(requestFrame(2, { mode: 'deny' }), ctx));
    expect(deny).toMatchObject({ id: 2, result: { effects: [{ type: 'deny' }] } });
    expect(onlyPid(t)).toBe(pid);
    expect(ctx.frames.map((f) => f.direction)).toEqual(['out', 'in', 'out', 'in']);
    expect(ctx.frames[0]?.text).toBe(requestFrame(1));
  });

  it("writes the harness's own request as its UTF-8 line and records that text in the transcript", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ahp-persistent-')), 'lines');
    const t = backend(['echo', `record=${file}`]);
    const transcript = new TranscriptRecorder(new ManualClock(7));
    const ctx = new HarnessSendContext(new Cancellation(), transcript, 'b', 2, () => undefined);
    const frame = requestFrame('évt-😀', { text: 'naïve \u2028 ✓' });
    expectOk(await t.request(frame, ctx));
    expect(readFileSync(file)).toEqual(Buffer.from(`${frame}\n`, 'utf8'));
    expect(transcript.entries).toEqual([
      { backendId: 'b', direction: 'out', at: 7, attempt: 2, text: frame },
      expect.objectContaining({ backendId: 'b', direction: 'in', attempt: 2 }),
    ]);
    expect(JSON.parse(transcript.entries[1]?.text ?? '')).toMatchObject({ id: 'évt-😀' });
  });

  it('gives the child exactly the environment it was passed', async () => {
    const t = backend(['env'], { env: { AHP_ONLY_THIS: 'yes' } });
    const reply = expectOk(await t.request(requestFrame(1), recordingContext()));
    expect(reply).toMatchObject({ result: { env: ['AHP_ONLY_THIS'] } });
  });

  it.each([
    ['garbage', 'stdio.framing.not-json'],
    ['invalid-utf8', 'stdio.framing.invalid-utf8'],
    ['multi-line', 'stdio.framing.multi-line'],
    ['huge', 'stdio.framing.frame-too-large'],
  ])('treats %s output as malformed and replaces the process on next use', async (mode, code) => {
    const t = backend(['echo'], { maxFrameBytes: 1024 });
    expectOk(await t.request(requestFrame(1), recordingContext()));
    const first = onlyPid(t);
    expectFailure(await t.request(requestFrame(2, { mode }), recordingContext()), 'malformed', code);
    expectOk(await t.request(requestFrame(3), recordingContext()));
    // A new process served it. The malformed one was retired at once, but its exit may still be
    // on its way on a loaded machine: it must be reaped within the margin, not before this line.
    const replacement = t.livePids().filter((pid) => pid !== first);
    expect(replacement).toHaveLength(1);
    await vi.waitFor(() => expect(t.livePids()).toEqual(replacement), {
      timeout: TEST_BACKEND_MARGINS.reapMs,
    });
  });

  it('treats a startup banner as a malformed reply', async () => {
    const t = backend(['echo', 'banner']);
    const reply = await t.request(requestFrame(1), recordingContext());
    expectFailure(reply, 'malformed', 'stdio.framing.not-json');
    expect(reply.ok ? '' : Buffer.from(reply.raw ?? []).toString()).toContain('starting');
  });

  it('reports output written while idle on the next request, sends that request nowhere, then replaces the process', async () => {
    const t = backend(['echo']);
    const first = recordingContext();
    expectOk(await t.request(requestFrame(1, { mode: 'reply-then-noise' }), first));
    const pid = onlyPid(t);
    await first.framesSeen('in', 2);
    const second = recordingContext();
    const detail = expectFailure(
      await t.request(requestFrame(2), second),
      'malformed',
      'stdio.unsolicited-output',
    );
    expect(detail).toContain('idle noise');
    expect(second.frames).toEqual([]);
    expectOk(await t.request(requestFrame(3), recordingContext()));
    expect(onlyPid(t)).not.toBe(pid);
  });

  it('with an isNoise rule, reads past a banner and idle noise on one process, handing each line to onNoise', async () => {
    const notJson = (item: NdjsonItem) => item.kind === 'fault' && item.code === 'not-json';
    const t = backend(['echo', 'banner'], { isNoise: notJson });
    const noise: string[] = [];
    const ctx = {
      ...recordingContext(),
      onNoise: (raw: Uint8Array) => noise.push(Buffer.from(raw).toString()),
    };
    expect(expectOk(await t.request(requestFrame(1, { mode: 'reply-then-noise' }), ctx))).toMatchObject({
      id: 1,
    });
    const pid = onlyPid(t);
    await vi.waitFor(() => expect(noise).toEqual(['policy backend v1 starting', 'log: idle noise']));
    expect(expectOk(await t.request(requestFrame(2), recordingContext()))).toMatchObject({ id: 2 });
    expect(onlyPid(t)).toBe(pid);
    // What the rule does not name is still protocol output: a non-JSON reply stays a fault.
    expectFailure(
      await t.request(requestFrame(3, { mode: 'multi-line' }), ctx),
      'malformed',
      'stdio.framing.multi-line',
    );
  });

  it.each([
    ['exit-1', 'stdio.exit-nonzero'],
    ['exit-0', 'stdio.exit-before-reply'],
    ['signal', 'stdio.signal'],
    ['close-stdout', 'stdio.stdout-closed'],
  ])('classifies a backend that ends with %s before replying as a process failure', async (mode, code) => {
    const t = backend(['echo']);
    const detail = expectFailure(
      await t.request(requestFrame(1, { mode }), recordingContext()),
      'process',
      code,
    );
    if (mode === 'exit-1') expect(detail).toContain('boom');
    expectOk(await t.request(requestFrame(2), recordingContext()));
  });

  it('spawns a new process after the old one exited while idle', async () => {
    const t = backend(['echo']);
    expectOk(await t.request(requestFrame(1, { mode: 'exit-1-after-reply' }), recordingContext()));
    const pid = onlyPid(t);
    await vi.waitFor(() => expect(t.livePids()).toEqual([]), { timeout: TEST_BACKEND_MARGINS.reapMs });
    expectOk(await t.request(requestFrame(2), recordingContext()));
    expect(onlyPid(t)).not.toBe(pid);
  });

  it('reports launch failures (ENOENT, EACCES) as process failures', async () => {
    const missing = backend([], { command: '/nonexistent/ahp-backend' });
    const d1 = expectFailure(
      await missing.request(requestFrame(1), recordingContext()),
      'process',
      'stdio.launch-failed',
    );
    expect(d1).toContain('ENOENT');
    expect(await missing.notify(notificationFrame(), recordingContext())).toMatchObject({
      ok: false,
      failure: { code: 'stdio.launch-failed' },
    });
    const dir = mkdtempSync(join(tmpdir(), 'ahp-h4-'));
    const file = join(dir, 'not-executable');
    writeFileSync(file, '#!/bin/sh\n');
    chmodSync(file, 0o644);
    const denied = backend([], { command: file });
    const d2 = expectFailure(
      await denied.request(requestFrame(1), recordingContext()),
      'process',
      'stdio.launch-failed',
    );
    expect(d2).toContain('EACCES');
    expect(denied.livePids()).toEqual([]);
  });

  it('keeps one request outstanding per process: the second is written only after the first reply', async () => {
    const t = backend(['echo']);
    const ctx = recordingContext();
    const [a, b] = await Promise.all([
      t.request(requestFrame(1, { mode: 'slow', delayMs: 100 }), ctx),
      t.request(requestFrame(2), ctx),
    ]);
    expect(expectOk(a)).toMatchObject({ id: 1 });
    expect(expectOk(b)).toMatchObject({ id: 2 });
    expect(ctx.frames.map((f) => f.direction)).toEqual(['out', 'in', 'out', 'in']);
  });

  it('lets a queued caller leave at once on abort, and replaces a process that still holds an abandoned request', async () => {
    const t = backend(['echo']);
    const held = recordingContext();
    const first = t.request(requestFrame(1, { mode: 'hang' }), held);
    await held.framesSeen('out', 1);
    const pid = onlyPid(t);
    const queued = recordingContext();
    const second = t.request(requestFrame(2), queued);
    const t0 = performance.now();
    queued.controller.abort();
    expectFailure(await second, 'deadline-exceeded', 'deadline');
    expect(performance.now() - t0).toBeLessThan(TEST_BACKEND_MARGINS.promptMs);
    expect(queued.frames).toEqual([]);
    held.controller.abort();
    expectFailure(await first, 'deadline-exceeded', 'deadline');
    expectOk(await t.request(requestFrame(3), recordingContext()));
    expect(t.livePids()).not.toContain(pid);
    await vi.waitFor(() => expect(!processAlive(pid)).toBe(true), {
      timeout: TEST_BACKEND_MARGINS.killGraceMs + TEST_BACKEND_MARGINS.reapMs,
    });
  });

  it('ends a pending request at once on abort and hands a later reply to onLateReply once', async () => {
    const t = backend(['echo']);
    const ctx = recordingContext();
    const pending = t.request(
      requestFrame(7, { mode: 'slow', delayMs: TEST_BACKEND_MARGINS.slowReplyMs }),
      ctx,
    );
    await ctx.framesSeen('out', 1);
    const pid = onlyPid(t);
    const t0 = performance.now();
    ctx.controller.abort(new DOMException('deadline', 'TimeoutError'));
    const reply = await pending;
    expect(performance.now() - t0).toBeLessThan(TEST_BACKEND_MARGINS.promptMs);
    expect(ctx.lateReplies).toEqual([]);
    expect(expectFailure(reply, 'deadline-exceeded', 'deadline')).toContain('TimeoutError');
    expect(JSON.parse(await ctx.lateReply())).toMatchObject({ id: 7 });
    // The late reply cleared the debt: the same process serves the next request.
    expectOk(await t.request(requestFrame(8), recordingContext()));
    expect(onlyPid(t)).toBe(pid);
    expect(ctx.lateReplies).toHaveLength(1);
  });

  it('writes notifications without waiting for any reply', async () => {
    const t = backend(['hang']);
    const ctx = recordingContext();
    expect(await t.notify(notificationFrame(), ctx)).toEqual({ ok: true });
    expect(ctx.frames.map((f) => f.direction)).toEqual(['out']);
  });

  it('settles a pending request when closed, and fails calls after close locally', async () => {
    const t = backend(['hang']);
    const ctx = recordingContext();
    const pending = t.request(requestFrame(1), ctx);
    await ctx.framesSeen('out', 1);
    const closing = t.close();
    expectFailure(await pending, 'process', 'stdio.closed');
    await closing;
    expectFailure(await t.request(requestFrame(2), recordingContext()), 'process', 'stdio.closed');
    expect(t.livePids()).toEqual([]);
  });

  it('close() reaps a SIGTERM-ignoring child with SIGKILL after the grace and leaves no handle open', async () => {
    const before = await handleCounts();
    const t = backend(['echo', 'ignore-sigterm']);
    // A reply proves the child is up and its SIGTERM handler installed.
    expectOk(await t.request(requestFrame(1), recordingContext()));
    const pid = onlyPid(t);
    const t0 = performance.now();
    await t.close();
    const elapsed = performance.now() - t0;
    expect(!processAlive(pid)).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(TEST_BACKEND_MARGINS.killGraceMs - 5);
    expect(elapsed).toBeLessThan(TEST_BACKEND_MARGINS.killGraceMs + TEST_BACKEND_MARGINS.reapMs);
    expect(t.livePids()).toEqual([]);
    expect(await handleCounts()).toEqual(before);
    await t.close();
  });
});

describe('startupMs', () => {
  it('writes nothing for a call that ends while the new process starts, and keeps the process for the next', async () => {
    const t = backend([], { startupMs: 400 });
    const first = recordingContext();
    const pending = t.request(requestFrame(1), first);
    setTimeout(() => first.controller.abort(new DOMException('deadline', 'TimeoutError')), 50);
    const reply = await pending;
    expect(reply.ok).toBe(false);
    expect(first.frames).toEqual([]);
    const pid = onlyPid(t);
    const second = recordingContext();
    expectOk(await t.request(requestFrame(2), second));
    expect(second.frames.map((f) => f.direction)).toEqual(['out', 'in']);
    expect(onlyPid(t)).toBe(pid);
  });

  it('answers a process failure, without waiting out the deadline, when the process ends while it starts', async () => {
    // `node -e` with a program that exits at once. The start-up wait is far longer than a node
    // start on a busy machine, so the process is gone before the wait ends, and the answer must
    // come long before the wait (and the deadline after it) would.
    const startupMs = 10_000;
    const t = backend(['-e', 'process.exit(3)'], { command: process.execPath, startupMs });
    const ctx = recordingContext();
    const abort = setTimeout(
      () => ctx.controller.abort(new DOMException('deadline', 'TimeoutError')),
      2 * startupMs,
    );
    const started = performance.now();
    const reply = await t.request(requestFrame(1), ctx);
    clearTimeout(abort);
    expectFailure(reply, 'process', 'stdio.exit-nonzero');
    expect(performance.now() - started).toBeLessThan(startupMs);
    expect(ctx.frames).toEqual([]);
  });
});

/**
 * A backend (a `node -e` program) that writes frames correlating with nothing: `stray` writes a
 * reply under an unknown id at once and its own deny `delayMs` later (none with `never`); `again`
 * answers at once and writes that reply again `delayMs` later; `slow` answers after `delayMs`. It
 * answers every notification with a null-id result, as an observer that mistakes one for a request.
 */
const STRAY_BACKEND = `
const out = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
const reply = (id, effects) => ({ jsonrpc: '2.0', id, result: { protocolVersion: 'draft', effects } });
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (!('id' in m)) return out(reply(null, []));
  const { mode, delayMs = 0, never } = m.params;
  const own = reply(m.id, [{ type: 'deny', reason: 'own reply' }]);
  if (mode === 'stray') {
    out(reply('unknown:' + m.id, []));
    if (!never) setTimeout(() => out(own), delayMs);
  } else if (mode === 'again') {
    out(own);
    setTimeout(() => out(own), delayMs);
  } else setTimeout(() => out(own), delayMs);
});
`;

/** Long enough for a frame written first to be read before the one after it. */
const STRAY_PAUSE_MS = 150;

const strayBackend = (replyMatching?: 'by-id' | 'next-frame') =>
  backend(['-e', STRAY_BACKEND], {
    command: process.execPath,
    ...(replyMatching === undefined ? {} : { replyMatching }),
  });

const reasonOf = (reply: TransportReply) =>
  (expectOk(reply) as { result?: { effects?: Array<{ reason?: string }> } }).result?.effects?.[0]?.reason;

describe('persistent stdio replies correlated by JSON-RPC id', () => {
  it('reads past a reply under an unknown id, keeps it in the transcript, and settles by the reply carrying its id', async () => {
    const t = strayBackend();
    const ctx = recordingContext();
    const reply = await t.request(requestFrame('evt-1', { mode: 'stray', delayMs: STRAY_PAUSE_MS }), ctx);
    expect(expectOk(reply)).toMatchObject({ id: 'evt-1' });
    expect(reasonOf(reply)).toBe('own reply');
    expect(ctx.frames.map((f) => f.direction)).toEqual(['out', 'in', 'in']);
    expect(JSON.parse(ctx.frames[1]?.text ?? '')).toMatchObject({ id: 'unknown:evt-1' });
  });

  it.each([
    [
      'an id with escapes',
      requestFrame('evt-"q"\\-😀', { mode: 'stray', delayMs: STRAY_PAUSE_MS }),
      'evt-"q"\\-😀',
    ],
    ['a numeric id', requestFrame(42, { mode: 'stray', delayMs: STRAY_PAUSE_MS }), 42],
    [
      'members in another order',
      JSON.stringify({
        id: 'evt-9',
        method: 'hooks/intercept',
        jsonrpc: '2.0',
        params: { mode: 'stray', delayMs: STRAY_PAUSE_MS },
      }),
      'evt-9',
    ],
  ])('correlates by the request id read from a frame with %s', async (_what, frame, id) => {
    const t = strayBackend();
    const reply = await t.request(frame, recordingContext());
    expect(expectOk(reply)).toMatchObject({ id });
    expect(reasonOf(reply)).toBe('own reply');
  });

  it('leaves a request answered only by a stray frame pending until its deadline', async () => {
    const t = strayBackend();
    const ctx = recordingContext();
    const pending = t.request(requestFrame('evt-1', { mode: 'stray', never: true }), ctx);
    await ctx.framesSeen('in', 1);
    const settled = await Promise.race([
      pending.then(() => true),
      new Promise<false>((r) => setTimeout(() => r(false), STRAY_PAUSE_MS)),
    ]);
    expect(settled).toBe(false);
    ctx.controller.abort(new DOMException('deadline', 'TimeoutError'));
    expectFailure(await pending, 'deadline-exceeded', 'deadline');
  });

  it('reads past an old reply written again, while idle or while the next request is pending, on the same process', async () => {
    const t = strayBackend();
    const first = recordingContext();
    expect(
      reasonOf(await t.request(requestFrame('evt-1', { mode: 'again', delayMs: STRAY_PAUSE_MS }), first)),
    ).toBe('own reply');
    const pid = onlyPid(t);
    // The old reply comes while this request waits for its own.
    const second = recordingContext();
    const reply = await t.request(
      requestFrame('evt-2', { mode: 'slow', delayMs: 2 * STRAY_PAUSE_MS }),
      second,
    );
    expect(expectOk(reply)).toMatchObject({ id: 'evt-2' });
    const old = [...first.frames, ...second.frames].filter((f) => f.direction === 'in');
    expect(old.map((f) => (JSON.parse(f.text) as { id: string }).id)).toEqual(['evt-1', 'evt-1', 'evt-2']);
    // While idle: the next request neither fails nor goes to another process.
    await new Promise((r) => setTimeout(r, 2 * STRAY_PAUSE_MS));
    expect(
      expectOk(await t.request(requestFrame('evt-3', { mode: 'again', delayMs: 0 }), recordingContext())),
    ).toMatchObject({ id: 'evt-3' });
    await new Promise((r) => setTimeout(r, STRAY_PAUSE_MS));
    expect(expectOk(await t.request(requestFrame('evt-4', {}), recordingContext()))).toMatchObject({
      id: 'evt-4',
    });
    expect(onlyPid(t)).toBe(pid);
  });

  it('reads past an answer to a notification: the next request gets its own reply on the same process', async () => {
    const t = strayBackend();
    const observed = recordingContext();
    expect(expectOk(await t.request(requestFrame('evt-1', {}), recordingContext()))).toMatchObject({
      id: 'evt-1',
    });
    const pid = onlyPid(t);
    expect(await t.notify(notificationFrame(), observed)).toEqual({ ok: true });
    await observed.framesSeen('in', 1);
    expect(expectOk(await t.request(requestFrame('evt-2', {}), recordingContext()))).toMatchObject({
      id: 'evt-2',
    });
    // And one that arrives while a request is pending.
    void t.notify(notificationFrame(), recordingContext());
    const reply = await t.request(requestFrame('evt-3', { delayMs: STRAY_PAUSE_MS }), recordingContext());
    expect(expectOk(reply)).toMatchObject({ id: 'evt-3' });
    expect(onlyPid(t)).toBe(pid);
  });

  it('hands an abandoned request only its own reply as the late one, past a stray frame', async () => {
    const t = strayBackend();
    const ctx = recordingContext();
    const pending = t.request(requestFrame('evt-1', { mode: 'stray', delayMs: STRAY_PAUSE_MS }), ctx);
    await ctx.framesSeen('out', 1);
    ctx.controller.abort(new DOMException('deadline', 'TimeoutError'));
    expectFailure(await pending, 'deadline-exceeded', 'deadline');
    expect(JSON.parse(await ctx.lateReply())).toMatchObject({ id: 'evt-1' });
    expect(ctx.lateReplies).toHaveLength(1);
  });

  it('with replyMatching next-frame, settles with the first frame whatever its id', async () => {
    const t = strayBackend('next-frame');
    const reply = await t.request(
      requestFrame('evt-1', { mode: 'stray', delayMs: STRAY_PAUSE_MS }),
      recordingContext(),
    );
    expect(expectOk(reply)).toMatchObject({ id: 'unknown:evt-1' });
  });

  it('with replyMatching next-frame, records a reply to a notification as malformed on the next read', async () => {
    const t = backend(['reply-to-notify'], { replyMatching: 'next-frame' });
    const ctx = recordingContext();
    expect(await t.notify(notificationFrame(), ctx)).toEqual({ ok: true });
    await ctx.framesSeen('in', 1);
    expectFailure(
      await t.request(requestFrame(1), recordingContext()),
      'malformed',
      'stdio.unsolicited-output',
    );
  });

  it('takes a batch holding the reply to the pending request as its (malformed) answer', async () => {
    const t = backend(['-e', BATCH_BACKEND], { command: process.execPath });
    const reply = await t.request(requestFrame('evt-1', {}), recordingContext());
    expect(expectOk(reply)).toEqual([{ jsonrpc: '2.0', id: 'evt-1', result: {} }]);
  });
});

/** A backend that answers each request with a batch holding its reply. */
const BATCH_BACKEND = `
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const { id } = JSON.parse(line);
  process.stdout.write(JSON.stringify([{ jsonrpc: '2.0', id, result: {} }]) + '\\n');
});
`;
