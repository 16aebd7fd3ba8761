import type { Clock } from '../../protocol/clock.js';
import { isJsonObject, type JsonValue } from '../../protocol/json.js';
import { NdjsonDecoder, type NdjsonItem } from '../../protocol/ndjson.js';
import type { BackendTransport, NotifyOutcome, SendContext, TransportReply } from '../transport.js';
import { ABORTED, raceSignal, type CancelView } from '../cancellation.js';
import { cancelOf, HarnessSendContext } from './abortable.js';
import { ProcessSet, spawnBackendProcess, type BackendProcess } from './child-process.js';
import {
  abortedFailure,
  failedReply,
  framingCode,
  preview,
  transportFailure,
  type TransportFailureCode,
} from './failure-codes.js';
import { SerialQueue } from './serial-queue.js';
import { exitFailure, launchFailure } from './stdio-exit.js';

/** Options of a persistent stdio backend. `env` is the child's whole environment. */
export interface PersistentStdioOptions {
  command: string;
  args: readonly string[];
  cwd?: string;
  env: Readonly<Record<string, string>>;
  clock: Clock;
  killGraceMs: number;
  maxFrameBytes?: number;
  /**
   * Stdout lines to read past instead of treating as protocol output: each goes to the context's
   * `onNoise` and is neither a reply nor output while idle. For a conformance suite that goes on
   * judging a backend after a log line; the harness leaves it unset, so every stdout line is
   * protocol and anything else poisons the process, as the draft says.
   */
  isNoise?: (item: NdjsonItem) => boolean;
  /**
   * How long a freshly spawned process is left to come up before its first request is written,
   * for a harness that waits for its backend to start. The wait is part of the call's deadline: a
   * call that ends first writes nothing, and the process stays for the next call. Default 0.
   */
  startupMs?: number;
  /**
   * Which stdout frame answers a request. `by-id` (the default, the harness's): the draft has the
   * harness correlate a persistent backend's replies by JSON-RPC id, so a frame naming no
   * outstanding request (a reply under an unknown id, an old reply again, an answer to a
   * notification) settles nothing: it goes to the transcript (`onFrame`) and is read past, and the
   * request waits for its own reply or its deadline. `next-frame`: the next frame is the reply
   * whatever its id, and a frame while no request is outstanding is unsolicited output; for a
   * conformance suite that judges a backend's ids and stdout discipline itself.
   */
  replyMatching?: 'by-id' | 'next-frame';
}

/** The JSON-RPC id a reply must carry to answer a request; `undefined`: none to correlate by. */
type RequestId = string | number | undefined;

/**
 * One request written to a process: it settles once, with the reply or a failure, or is
 * abandoned when its caller's cancellation fired first (the backend still owes the reply). A
 * class, so a request costs one object and one abort listener rather than a set of closures.
 */
class Inflight {
  /** False once settled or abandoned: the caller already has its answer. */
  open = true;
  readonly ctx: SendContext;
  /** The id its reply must carry (`undefined`: the next frame answers it). */
  readonly id: RequestId;
  readonly #resolve: (reply: TransportReply) => void;
  /** The request lock, when this request holds it itself (the hot path); released on its answer. */
  readonly #release: (() => void) | undefined;
  #detach: (() => void) | undefined;

  constructor(
    ctx: SendContext,
    id: RequestId,
    resolve: (reply: TransportReply) => void,
    release: (() => void) | undefined,
  ) {
    this.ctx = ctx;
    this.id = id;
    this.#resolve = resolve;
    this.#release = release;
  }

  /** Ends the request when `cancel` fires before its answer. */
  listen(cancel: CancelView): void {
    this.#detach = cancel.onAbort(() => this.#answer({ ok: false, failure: abortedFailure(cancel) }));
  }

  /** Settles with the process's answer (its reply, a fault, or its death). */
  settle(reply: TransportReply): void {
    this.#detach?.();
    this.#answer(reply);
  }

  #answer(reply: TransportReply): void {
    if (!this.open) return;
    this.open = false;
    this.#release?.();
    this.#resolve(reply);
  }
}

/** One backend process and what the transport knows about its conversation. */
interface Session {
  proc: BackendProcess;
  decoder: NdjsonDecoder;
  inflight: Inflight | undefined;
  /** Gets transcript frames that arrive while idle. */
  lastCtx: SendContext | undefined;
  stdoutEnded: boolean;
  dead: boolean;
  retired: boolean;
  /** True once `proc.started` resolved true. */
  running: boolean;
  /** Resolves once the process has had `startupMs` to come up, or has ended (at once without it). */
  startedUp: Promise<void> | undefined;
  /** Why we ended the process, reported if a request was still owed a reply. */
  ourReason: { code: TransportFailureCode; detail: string } | undefined;
}

const encoder = new TextEncoder();

/**
 * A long-lived backend process spawned on first use, one outstanding request at a time. The
 * reply to a request is the frame that carries its id (`replyMatching`); a framing fault on
 * stdout poisons the process.
 */
export function createPersistentStdioTransport(options: PersistentStdioOptions): BackendTransport {
  const procs = new ProcessSet();
  const sessions = new Set<Session>();
  const queue = new SerialQueue();
  const byId = options.replyMatching !== 'next-frame';
  let current: Session | undefined;
  /** A protocol violation seen while idle, reported by the next request. */
  let violation: TransportReply | undefined;
  let closing: Promise<void> | undefined;

  const retire = (s: Session, reason?: Session['ourReason']) => {
    s.ourReason ??= reason;
    s.retired = true;
    if (current === s) current = undefined;
    procs.retire(s.proc);
  };

  const settle = (s: Session, reply: TransportReply) => {
    const inflight = s.inflight;
    if (!inflight?.open) return;
    s.inflight = undefined;
    inflight.settle(reply);
  };

  const onItem = (s: Session, item: NdjsonItem) => {
    const inflight = s.inflight;
    if (options.isNoise?.(item)) {
      (inflight?.ctx ?? s.lastCtx)?.onNoise?.(item.bytes);
      return;
    }
    (inflight?.ctx ?? s.lastCtx)?.onFrame?.('in', item.bytes, item.kind === 'frame' ? item.text : undefined);
    // A frame that answers nothing outstanding stays in the transcript above and changes nothing:
    // neither the pending request (still owed its own reply) nor the next one.
    if (byId && item.kind === 'frame' && !answers(item.value, inflight)) return;
    if (inflight?.open) {
      if (item.kind === 'frame') {
        settle(s, { ok: true, message: item.value, raw: item.bytes });
        return;
      }
      const code = framingCode(item.code);
      settle(
        s,
        failedReply(code, `stdout framing fault: ${item.message}; ${preview(item.bytes)}`, item.bytes),
      );
      retire(s);
    } else if (inflight) {
      // The reply of an abandoned request, arriving while we still listen.
      s.inflight = undefined;
      inflight.ctx.onLateReply?.(item.bytes);
      if (item.kind === 'fault') retire(s);
    } else if (!s.retired && current === s && !violation) {
      const what = item.kind === 'fault' ? `a framing fault (${item.message})` : 'a frame';
      violation = failedReply(
        'stdio.unsolicited-output',
        `the backend wrote ${what} while no request was outstanding: ${preview(item.bytes)}`,
        item.bytes,
      );
    }
  };

  const writeFailed = (s: Session, error: Error) => {
    retire(s, { code: 'stdio.write-failed', detail: `writing to stdin failed: ${error.message}` });
  };

  const maybeDead = (s: Session) => {
    const exit = s.proc.exitInfo();
    if (s.dead || !exit || (exit.kind === 'exited' && !s.stdoutEnded)) return;
    s.dead = true;
    sessions.delete(s);
    if (current === s) current = undefined;
    if (s.inflight?.open)
      settle(s, exitFailure(s.proc, options.command, s.ourReason, 'stdio.exit-before-reply'));
    s.inflight = undefined;
  };

  const spawnSession = (): Session => {
    const decoder = new NdjsonDecoder(
      options.maxFrameBytes === undefined ? {} : { maxFrameBytes: options.maxFrameBytes },
    );
    const s: Session = {
      decoder,
      inflight: undefined,
      lastCtx: undefined,
      stdoutEnded: false,
      dead: false,
      retired: false,
      running: false,
      startedUp: undefined,
      ourReason: undefined,
      proc: spawnBackendProcess({
        command: options.command,
        args: options.args,
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        env: options.env,
        clock: options.clock,
        killGraceMs: options.killGraceMs,
        onStdout: (chunk) => {
          for (const item of decoder.push(chunk)) onItem(s, item);
        },
        onStdoutEnd: () => {
          for (const item of decoder.end()) onItem(s, item);
          s.stdoutEnded = true;
          // A process whose stdout is gone can never answer again.
          if (!s.proc.exitInfo())
            retire(s, { code: 'stdio.stdout-closed', detail: 'the backend closed stdout' });
          maybeDead(s);
        },
      }),
    };
    // A process that ends while it is given time to start will never read a request: its exit
    // ends the wait, so the request learns of it at once rather than when the wait runs out.
    if (options.startupMs)
      s.startedUp = Promise.race([
        options.clock.sleep(options.startupMs),
        s.proc.exited.then(() => undefined),
      ]);
    procs.add(s.proc);
    sessions.add(s);
    void s.proc.exited.then(() => maybeDead(s));
    return s;
  };

  /** The session to use now: the current one if it is clean, otherwise a fresh process. */
  const usableSession = (): Session => {
    const s = current;
    if (s && isClean(s)) return s;
    // An abandoned request is still owed: the backend holds it, so it cannot get a new one.
    if (s) retire(s);
    current = spawnSession();
    return current;
  };

  const exchange = async (frame: string, ctx: SendContext, cancel: CancelView): Promise<TransportReply> => {
    if (violation) {
      const reported = violation;
      violation = undefined;
      if (current) retire(current);
      return reported;
    }
    const s = usableSession();
    s.lastCtx = ctx;
    // A running process's `started` is settled: skip the race and its listener (the hot path).
    const started = s.running ? true : await raceSignal(s.proc.started, cancel);
    if (started === ABORTED) return { ok: false, failure: abortedFailure(cancel) };
    if (!started) {
      retire(s);
      return launchFailure(s.proc, options.command);
    }
    if (s.startedUp && (await raceSignal(s.startedUp, cancel)) === ABORTED) {
      return { ok: false, failure: abortedFailure(cancel) };
    }
    // A process that ended while it was given time to start will never read the request: its
    // exit is the answer now, not a wait for a reply that cannot come until the deadline.
    if (s.dead || s.proc.exitInfo() !== undefined) {
      retire(s);
      return exitFailure(s.proc, options.command, s.ourReason, 'stdio.exit-before-reply');
    }
    s.running = true;
    if (closing) return failedReply('stdio.closed', 'the transport was closed');
    if (cancel.aborted) return { ok: false, failure: abortedFailure(cancel) };
    return send(s, frame, ctx, cancel, undefined);
  };

  /**
   * Writes the request line to a running process and waits for its answer. `release` is the
   * request lock when the caller took it without `guarded` (the hot path): the answer frees it.
   */
  const send = (
    s: Session,
    frame: string,
    ctx: SendContext,
    cancel: CancelView,
    release: (() => void) | undefined,
  ): Promise<TransportReply> =>
    new Promise<TransportReply>((resolve) => {
      const inflight = new Inflight(ctx, byId ? requestIdOf(frame) : undefined, resolve, release);
      s.inflight = inflight;
      s.lastCtx = ctx;
      // The harness's transcript keeps text: its line goes out as a string (encoded as it is
      // written, like any plain client's) and no bytes are made. For any other context one
      // encoding serves the write and the frame callback.
      const own = ctx instanceof HarnessSendContext;
      const line = own ? `${frame}\n` : Buffer.from(`${frame}\n`, 'utf8');
      s.proc.send(line, (error) => writeFailed(s, error));
      inflight.listen(cancel);
      if (own) ctx.recordText('out', frame);
      else ctx.onFrame?.('out', (line as Buffer).subarray(0, line.length - 1), frame);
    });

  /** Runs `run` holding the one-request-at-a-time lock; results are built only when needed. */
  const guarded = async <T>(cancel: CancelView, closedResult: () => T, run: () => Promise<T>): Promise<T> => {
    if (closing) return closedResult();
    const release = queue.tryAcquire() ?? (await queue.acquire(cancel));
    if (!release) return closing ? closedResult() : ({ ok: false, failure: abortedFailure(cancel) } as T);
    try {
      return await run();
    } finally {
      release();
    }
  };

  return {
    kind: 'stdio-persistent',
    request(frame, ctx) {
      const cancel = cancelOf(ctx);
      // The usual case: a free lock and a clean running process. Straight to the write, without
      // the async layers of `guarded` and `exchange` (each costs ticks on the way out and back).
      const s = current;
      if (s?.running && !closing && !violation && !cancel.aborted && isClean(s)) {
        const release = queue.tryAcquire();
        if (release) return send(s, frame, ctx, cancel, release);
      }
      return guarded<TransportReply>(
        cancel,
        () => failedReply('stdio.closed', 'the transport was closed'),
        () => exchange(frame, ctx, cancel),
      );
    },
    notify(frame, ctx) {
      return guarded<NotifyOutcome>(
        cancelOf(ctx),
        () => ({ ok: false, failure: transportFailure('stdio.closed', 'the transport was closed') }),
        async () => {
          const use = current && isLive(current) ? current : (current = spawnSession());
          use.lastCtx = ctx;
          const started = await raceSignal(use.proc.started, cancelOf(ctx));
          if (started === ABORTED) return { ok: false, failure: abortedFailure(cancelOf(ctx)) };
          if (!started) {
            retire(use);
            const f = launchFailure(use.proc, options.command);
            return f.ok ? { ok: true } : { ok: false, failure: f.failure };
          }
          ctx.onFrame?.('out', encoder.encode(frame));
          const error = await raceSignal(use.proc.write(`${frame}\n`), cancelOf(ctx));
          if (error === ABORTED) return { ok: false, failure: abortedFailure(cancelOf(ctx)) };
          if (!error) return { ok: true };
          retire(use, { code: 'stdio.write-failed', detail: error.message });
          return {
            ok: false,
            failure: transportFailure('stdio.write-failed', `writing to stdin failed: ${error.message}`),
          };
        },
      );
    },
    close() {
      closing ??= (async () => {
        queue.close();
        for (const s of [...sessions]) {
          settle(s, failedReply('stdio.closed', 'the transport was closed while the request was pending'));
          retire(s, { code: 'stdio.closed', detail: 'the transport was closed' });
        }
        current = undefined;
        await procs.terminateAll();
      })();
      return closing;
    },
    livePids: () => procs.livePids(),
  };
}

/** A process still in use: alive and not retired (it may owe a reply). */
function isLive(s: Session): boolean {
  return !s.dead && !s.retired && !s.proc.exitInfo();
}

/** A process that can take a request now: live and owing no reply. */
function isClean(s: Session): boolean {
  return isLive(s) && !s.inflight;
}

/**
 * A request frame as JSON.stringify writes a JSON-RPC message built `{ jsonrpc, id, ... }` (the
 * harness's own, protocol/messages.ts): its id token read off the front, so that a large frame is
 * not parsed again on every request.
 */
const LEADING_ID = /^\{"jsonrpc":"2\.0","id":("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)[,}]/;

/** The id of a request frame, when it has one a reply can carry. */
function requestIdOf(frame: string): RequestId {
  const leading = LEADING_ID.exec(frame)?.[1];
  let id: unknown;
  try {
    id = leading === undefined ? (JSON.parse(frame) as { id?: unknown } | null)?.id : JSON.parse(leading);
  } catch {
    return undefined;
  }
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/**
 * Whether a frame answers `inflight` (pending or abandoned): it carries the request's id, or is a
 * batch holding a message that does (a malformed reply to that request, for the core to judge).
 * A request without an id to correlate by takes the next frame.
 */
function answers(value: JsonValue, inflight: Inflight | undefined): boolean {
  if (!inflight) return false;
  if (inflight.id === undefined) return true;
  const id = inflight.id;
  if (Array.isArray(value)) return value.some((m) => isJsonObject(m) && m.id === id);
  return isJsonObject(value) && value.id === id;
}
