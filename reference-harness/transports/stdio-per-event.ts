import type { Clock } from '../../protocol/clock.js';
import { NdjsonDecoder, type NdjsonItem } from '../../protocol/ndjson.js';
import type { BackendTransport, NotifyOutcome, SendContext, TransportReply } from '../transport.js';
import { ABORTED, raceSignal } from '../cancellation.js';
import { cancelOf } from './abortable.js';
import { ProcessSet, spawnBackendProcess, type BackendProcess, type SpawnOptions } from './child-process.js';
import { abortedFailure, failedReply, framingCode, preview, transportFailure } from './failure-codes.js';
import { exitFailure, launchFailure, stderrSuffix } from './stdio-exit.js';

/** Options of a per-event stdio backend. `env` is the child's whole environment. */
export interface PerEventStdioOptions {
  command: string;
  args: readonly string[];
  cwd?: string;
  env: Readonly<Record<string, string>>;
  clock: Clock;
  killGraceMs: number;
  maxFrameBytes?: number;
  /** Stdout lines to read past (to `onNoise`), as in the persistent transport; unset for the harness. */
  isNoise?: (item: NdjsonItem) => boolean;
  /** Starts one backend process (default `spawnBackendProcess`); a wrapper may watch or bend it. */
  spawn?: (options: SpawnOptions) => BackendProcess;
}

/** What one process wrote on stdout: only the first frame and first fault are kept. */
interface Collected {
  frames: number;
  first: NdjsonItem & { kind: 'frame' };
  fault: NdjsonItem & { kind: 'fault' };
}

const encoder = new TextEncoder();

/**
 * One process per message: write the single line, close stdin, read stdout to EOF, and require
 * exactly one frame and a zero exit. An abort kills the process and answers at once; the reap
 * goes on in the background and `close()` waits for it.
 */
export function createPerEventStdioTransport(options: PerEventStdioOptions): BackendTransport {
  const procs = new ProcessSet();
  let closing: Promise<void> | undefined;
  const closedReply = () => failedReply('stdio.closed', 'the transport was closed');

  const spawn = (ctx: SendContext, collect: boolean) => {
    const decoder = new NdjsonDecoder(
      options.maxFrameBytes === undefined ? {} : { maxFrameBytes: options.maxFrameBytes },
    );
    const seen: Partial<Collected> & { frames: number } = { frames: 0 };
    let resolveEnd!: () => void;
    const stdoutEnded = new Promise<void>((r) => (resolveEnd = r));
    const onItem = (item: NdjsonItem) => {
      if (!collect) return;
      if (options.isNoise?.(item)) {
        ctx.onNoise?.(item.bytes);
        return;
      }
      ctx.onFrame?.('in', item.bytes);
      if (item.kind === 'frame') {
        seen.frames += 1;
        seen.first ??= item;
      } else {
        seen.fault ??= item;
      }
    };
    const proc = (options.spawn ?? spawnBackendProcess)({
      command: options.command,
      args: options.args,
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      env: options.env,
      clock: options.clock,
      killGraceMs: options.killGraceMs,
      onStdout: (chunk) => {
        for (const item of decoder.push(chunk)) onItem(item);
      },
      onStdoutEnd: () => {
        for (const item of decoder.end()) onItem(item);
        resolveEnd();
      },
    });
    procs.add(proc);
    return { proc, seen, stdoutEnded };
  };

  /** Starts the process and writes the one line; undefined when the line went out. */
  const start = async (
    proc: BackendProcess,
    frame: string,
    ctx: SendContext,
  ): Promise<TransportReply | undefined> => {
    const started = await raceSignal(proc.started, cancelOf(ctx));
    if (started === ABORTED) {
      procs.retire(proc);
      return { ok: false, failure: abortedFailure(cancelOf(ctx)) };
    }
    if (!started) return launchFailure(proc, options.command);
    ctx.onFrame?.('out', encoder.encode(frame));
    // A backend may answer without reading stdin; a failed write is judged by the exit instead.
    void proc.write(`${frame}\n`);
    proc.endStdin();
    return undefined;
  };

  const classify = (proc: BackendProcess, seen: Partial<Collected> & { frames: number }): TransportReply => {
    const exit = proc.exitInfo();
    const raw = seen.first?.bytes ?? seen.fault?.bytes;
    if (exit?.kind !== 'exited' || exit.signal !== null || exit.code !== 0) {
      return exitFailure(
        proc,
        options.command,
        { code: 'stdio.closed', detail: 'the transport was closed' },
        'stdio.no-reply',
        raw,
      );
    }
    if (seen.fault) {
      const f = seen.fault;
      return failedReply(
        framingCode(f.code),
        `stdout framing fault: ${f.message}; ${preview(f.bytes)}`,
        f.bytes,
      );
    }
    if (!seen.first)
      return failedReply('stdio.no-reply', `the backend exited 0 without a reply${stderrSuffix(proc)}`);
    if (seen.frames > 1) {
      return failedReply(
        'stdio.extra-reply',
        `the backend wrote ${seen.frames} frames; exactly one is allowed`,
        raw,
      );
    }
    return { ok: true, message: seen.first.value, raw: seen.first.bytes };
  };

  return {
    kind: 'stdio-per_event',
    async request(frame, ctx) {
      if (closing) return closedReply();
      if (cancelOf(ctx).aborted) return { ok: false, failure: abortedFailure(cancelOf(ctx)) };
      const { proc, seen, stdoutEnded } = spawn(ctx, true);
      const early = await start(proc, frame, ctx);
      if (early) return early;
      const done = await raceSignal(Promise.all([proc.exited, stdoutEnded]), cancelOf(ctx));
      if (done === ABORTED) {
        procs.retire(proc);
        return { ok: false, failure: abortedFailure(cancelOf(ctx)) };
      }
      return classify(proc, seen);
    },
    async notify(frame, ctx): Promise<NotifyOutcome> {
      if (closing)
        return { ok: false, failure: transportFailure('stdio.closed', 'the transport was closed') };
      if (cancelOf(ctx).aborted) return { ok: false, failure: abortedFailure(cancelOf(ctx)) };
      // Output is drained and dropped: a notification has no reply to read.
      const { proc } = spawn(ctx, false);
      const early = await start(proc, frame, ctx);
      return early && !early.ok ? { ok: false, failure: early.failure } : { ok: true };
    },
    close() {
      closing ??= procs.terminateAll();
      return closing;
    },
    livePids: () => procs.livePids(),
  };
}
