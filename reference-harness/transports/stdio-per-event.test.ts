import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../protocol/clock.js';
import type { NdjsonItem } from '../../protocol/ndjson.js';
import {
  TEST_BACKEND_MARGINS,
  STDIO_BACKEND,
  fileWritten,
  handleCounts,
  notificationFrame,
  recordingContext,
  requestFrame,
} from '../test-backends/helpers.js';
import type { BackendTransport, TransportReply } from '../transport.js';
import { spawnBackendProcess } from './child-process.js';
import { createPerEventStdioTransport } from './stdio-per-event.js';
import { processAlive } from '../../protocol/process-alive.js';

const open: BackendTransport[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

function backend(args: string[], command?: string, isNoise?: (item: NdjsonItem) => boolean) {
  const t = createPerEventStdioTransport({
    command: command ?? process.execPath,
    args: command ? args : [STDIO_BACKEND, ...args],
    env: {},
    clock: systemClock,
    killGraceMs: TEST_BACKEND_MARGINS.killGraceMs,
    ...(isNoise === undefined ? {} : { isNoise }),
  });
  open.push(t);
  return t;
}

function expectFailure(
  reply: TransportReply,
  failureClass: string,
  code: string,
): TransportReply & { ok: false } {
  if (reply.ok) throw new Error(`expected ${code}, got ${JSON.stringify(reply.message)}`);
  expect(reply.failure).toMatchObject({ failureClass, code });
  return reply;
}

/** The PID a running request's process has, read once its line was written. */
async function pidOfPending(t: BackendTransport, ctx: ReturnType<typeof recordingContext>): Promise<number> {
  await ctx.framesSeen('out', 1);
  const [pid] = t.livePids();
  expect(pid).toBeTypeOf('number');
  return pid as number;
}

describe('per-event stdio transport', () => {
  it('spawns one process per message and returns its single reply', async () => {
    const t = backend(['echo']);
    const a = recordingContext();
    const reply = await t.request(requestFrame(1, { mode: 'deny' }), a);
    expect(reply).toMatchObject({ ok: true, message: { id: 1, result: { effects: [{ type: 'deny' }] } } });
    expect(a.frames.map((f) => f.direction)).toEqual(['out', 'in']);
    expect(t.livePids()).toEqual([]);
    expect(await t.request(requestFrame(2), recordingContext())).toMatchObject({
      ok: true,
      message: { id: 2 },
    });
  });

  it('starts each process through the spawn it was given', async () => {
    const started: string[] = [];
    const t = createPerEventStdioTransport({
      command: process.execPath,
      args: [STDIO_BACKEND, 'echo'],
      env: {},
      clock: systemClock,
      killGraceMs: TEST_BACKEND_MARGINS.killGraceMs,
      spawn: (options) => {
        started.push(options.args.join(' '));
        return spawnBackendProcess(options);
      },
    });
    open.push(t);
    expect(await t.request(requestFrame(1), recordingContext())).toMatchObject({ ok: true });
    expect(started).toEqual([`${STDIO_BACKEND} echo`]);
  });

  it.each([
    ['exit-1-after-reply', 'process', 'stdio.exit-nonzero'],
    ['exit-1', 'process', 'stdio.exit-nonzero'],
    ['signal', 'process', 'stdio.signal'],
    ['exit-0', 'process', 'stdio.no-reply'],
    ['two-replies', 'malformed', 'stdio.extra-reply'],
    ['garbage', 'malformed', 'stdio.framing.not-json'],
    ['multi-line', 'malformed', 'stdio.framing.multi-line'],
    ['invalid-utf8', 'malformed', 'stdio.framing.invalid-utf8'],
    ['no-newline', 'malformed', 'stdio.framing.multi-line'],
  ])('classifies %s as %s (%s)', async (mode, failureClass, code) => {
    const t = backend([mode]);
    const reply = expectFailure(await t.request(requestFrame(1), recordingContext()), failureClass, code);
    if (mode === 'exit-1-after-reply') expect(Buffer.from(reply.raw ?? []).toString()).toContain('"id":1');
    if (mode === 'exit-1') expect(reply.failure.detail).toContain('boom');
  });

  it('with an isNoise rule, reads past a banner and judges the reply after it', async () => {
    const notJson = (item: NdjsonItem) => item.kind === 'fault' && item.code === 'not-json';
    const t = backend(['echo', 'banner'], undefined, notJson);
    const noise: string[] = [];
    const ctx = {
      ...recordingContext(),
      onNoise: (raw: Uint8Array) => noise.push(Buffer.from(raw).toString()),
    };
    expect(await t.request(requestFrame(1), ctx)).toMatchObject({ ok: true, message: { id: 1 } });
    expect(noise).toEqual(['policy backend v1 starting']);
    expect(ctx.frames.map((f) => f.direction)).toEqual(['out', 'in']);
  });

  it('reports launch failures as process failures', async () => {
    const t = backend([], '/nonexistent/ahp-backend');
    expectFailure(await t.request(requestFrame(1), recordingContext()), 'process', 'stdio.launch-failed');
    expect(await t.notify(notificationFrame(), recordingContext())).toMatchObject({
      ok: false,
      failure: { failureClass: 'process', code: 'stdio.launch-failed' },
    });
  });

  it('answers at once on abort and close() awaits the background reap of a SIGTERM-ignoring child', async () => {
    const before = await handleCounts();
    const file = join(mkdtempSync(join(tmpdir(), 'ahp-h4-')), 'record.jsonl');
    const t = backend(['hang', 'ignore-sigterm', `record=${file}`]);
    const ctx = recordingContext();
    const pending = t.request(requestFrame(1), ctx);
    const pid = await pidOfPending(t, ctx);
    // The record proves the child is up with its SIGTERM handler installed.
    await fileWritten(file, TEST_BACKEND_MARGINS.reapMs * 2);
    const t0 = performance.now();
    ctx.controller.abort();
    expectFailure(await pending, 'deadline-exceeded', 'deadline');
    expect(performance.now() - t0).toBeLessThan(TEST_BACKEND_MARGINS.promptMs);
    await t.close();
    // The SIGTERM went out at the abort; only SIGKILL after the grace ended the child.
    expect(performance.now() - t0).toBeGreaterThanOrEqual(TEST_BACKEND_MARGINS.killGraceMs - 5);
    expect(!processAlive(pid)).toBe(true);
    expect(t.livePids()).toEqual([]);
    expect(await handleCounts()).toEqual(before);
    expectFailure(await t.request(requestFrame(2), recordingContext()), 'process', 'stdio.closed');
    await t.close();
  });

  it('reaps an aborted child without waiting for close', async () => {
    const t = backend(['hang']);
    const ctx = recordingContext();
    const pending = t.request(requestFrame(1), ctx);
    const pid = await pidOfPending(t, ctx);
    ctx.controller.abort();
    expectFailure(await pending, 'deadline-exceeded', 'deadline');
    await vi.waitFor(() => expect(!processAlive(pid)).toBe(true), {
      timeout: TEST_BACKEND_MARGINS.killGraceMs + TEST_BACKEND_MARGINS.reapMs,
    });
  });

  it('settles a pending request as closed when the transport closes under it', async () => {
    const t = backend(['hang']);
    const ctx = recordingContext();
    const pending = t.request(requestFrame(1), ctx);
    const pid = await pidOfPending(t, ctx);
    await t.close();
    expectFailure(await pending, 'process', 'stdio.closed');
    expect(!processAlive(pid)).toBe(true);
  });

  it('does not start anything for an already aborted signal', async () => {
    const t = backend(['echo']);
    const ctx = recordingContext();
    ctx.controller.abort();
    expectFailure(await t.request(requestFrame(1), ctx), 'deadline-exceeded', 'deadline');
    expect(ctx.frames).toEqual([]);
    expect(t.livePids()).toEqual([]);
  });

  it('delivers a notification without waiting for output or exit, and close() reaps it', async () => {
    const t = backend(['hang']);
    const ctx = recordingContext();
    expect(await t.notify(notificationFrame({ n: 1 }), ctx)).toEqual({ ok: true });
    const [pid] = t.livePids();
    expect(pid).toBeTypeOf('number');
    await t.close();
    expect(!processAlive(pid as number)).toBe(true);
  });

  it('writes exactly the one line and closes stdin', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ahp-h4-')), 'record.jsonl');
    const t = backend(['echo', `record=${file}`]);
    expect(await t.notify(notificationFrame({ n: 1 }), recordingContext())).toEqual({ ok: true });
    // The child exits by itself only if stdin was closed after the one line.
    await vi.waitFor(() => expect(t.livePids()).toEqual([]), { timeout: TEST_BACKEND_MARGINS.reapMs * 2 });
    expect(readFileSync(file, 'utf8')).toBe(`${notificationFrame({ n: 1 })}\n`);
  });
});
