/**
 * Runs the frames of one case against the backend under test through the reference harness's
 * strict transports, and records what came back: one observation per step plus a transcript of
 * every frame exchanged (secrets redacted), for the report's evidence.
 */
import type { Clock } from '../../protocol/clock.js';
import {
  bearerFromEnv,
  createHttpTransport,
  createPerEventStdioTransport,
  createPersistentStdioTransport,
} from '../../reference-harness/transports/index.js';
import { describeFrame, FrameFactory, intentOf, type BuiltFrame, type FrameSpec } from './frames.js';
import { isNoiseLine } from './noise.js';
import { redactText } from './redact.js';
import { secretsOf, toolInputsOf, type BackendEndpoint, type BackendTarget } from './target.js';

// Types come from the transports' public entry (the harness's transport contract file is internal).
/** A reference harness transport (stdio persistent, stdio per_event or HTTP). */
export type BackendTransport = ReturnType<typeof createHttpTransport>;
/** What a transport's request resolves with. */
export type TransportReply = Awaited<ReturnType<BackendTransport['request']>>;
/** What a transport's notify resolves with. */
export type NotifyOutcome = Awaited<ReturnType<BackendTransport['notify']>>;
/** A transport-level failure: class, stable code, detail. */
export type TransportFailure = Extract<TransportReply, { ok: false }>['failure'];

/** What one request step saw. */
export interface RequestObservation {
  step: number;
  kind: 'request';
  frame: BuiltFrame;
  reply: TransportReply;
  elapsedMs: number;
  /** PIDs the transport held right after the reply (stdio only). */
  pids: number[];
  /** Stdout lines read past as noise (`noise.ts`) from this step until the next one took over. */
  noise: Uint8Array[];
}

/** What one notification step saw: the transport's outcome and every frame that came back. */
export interface NotificationObservation {
  step: number;
  kind: 'notification';
  frame: BuiltFrame;
  /** per_event stdio is exercised through `request` so that its output is read, not dropped. */
  via: 'request' | 'notify';
  outcome: NotifyOutcome | TransportReply;
  /** Messages (not noise) read from the backend after the notification, until the next step was sent. */
  inFrames: Uint8Array[];
  /** Stdout lines read past as noise from this step until the next one took over. */
  noise: Uint8Array[];
}

/** What one step saw. */
export type Observation = RequestObservation | NotificationObservation;

/** One line of the transcript: a frame in either direction, or a note (a failure, a late reply). */
export interface TranscriptEntry {
  /** The step number, counted from 1. */
  step: number;
  atMs: number;
  dir: 'out' | 'in' | 'note';
  text: string;
  /** Set when the bytes were not UTF-8: `text` is then their base64. */
  encoding?: 'base64';
  /** Set when the text was cut at `MAX_EVIDENCE_FRAME_CHARS`. */
  truncated?: true;
  /** Set on a stdout line that is not a JSON-RPC message, read past (AHP-STDIO-001 judges it). */
  noise?: true;
}

/** Everything one frame run saw: one observation per step sent, and the transcript. */
export interface FrameRun {
  observations: Observation[];
  transcript: TranscriptEntry[];
  /**
   * Set when a fresh persistent process did not answer a valid first request within its warm-up
   * bound: it never became ready, so the run stopped there and nothing it did can be judged.
   */
  notReady?: string;
}

/** What a frame run needs besides its frames. */
export interface FrameRunOptions {
  target: BackendTarget;
  clock: Clock;
  /** How long a stdio backend is watched for output after a notification. */
  silenceWindowMs: number;
  /** SIGTERM-to-SIGKILL grace when stdio processes are reaped. */
  killGraceMs: number;
  /**
   * How much longer than `--deadline-ms` the first request to a fresh persistent stdio process is
   * waited for: its warm-up, since a process may take a while to start reading stdin.
   */
  warmUpMs: number;
  /** Asked after each step: true ends the run early (nothing more could be judged). */
  stopAfter?: (observations: readonly Observation[]) => boolean;
}

/** Longest frame text kept in evidence; longer frames are cut and marked. */
export const MAX_EVIDENCE_FRAME_CHARS = 16_384;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Builds the reference harness transport for an endpoint. Stdio transports read past noise lines
 * (handing them to `onNoise`), so that one log line is reported once instead of ending the
 * exchange it interrupts and retiring the process.
 */
export function openTransport(
  endpoint: BackendEndpoint,
  clock: Clock,
  killGraceMs: number,
): BackendTransport {
  if (endpoint.kind === 'http') {
    const name = endpoint.bearerTokenEnv ?? 'AHP_CONFORMANCE_BEARER_TOKEN';
    const auth =
      endpoint.bearerToken === undefined ? undefined : bearerFromEnv(name, { [name]: endpoint.bearerToken });
    return createHttpTransport({ url: endpoint.url, clock, ...(auth ? { auth } : {}) });
  }
  const options = {
    command: endpoint.command,
    args: endpoint.args,
    cwd: endpoint.cwd,
    env: endpoint.env,
    clock,
    killGraceMs,
    isNoise: isNoiseLine,
  };
  // A backend's reply ids and what it writes while idle are what this suite judges: the next
  // frame is the reply, whatever its id, and a frame while idle is unsolicited output.
  return endpoint.lifecycle === 'persistent'
    ? createPersistentStdioTransport({ ...options, replyMatching: 'next-frame' })
    : createPerEventStdioTransport(options);
}

/**
 * The bounds of one exchange on the injected clock. Until the frame is written a guard bound runs
 * (spawning a process, queueing); from the write on, the reply bound. Every deadline verdict is
 * thereby measured from the moment the request went out, never from a spawn or the case start.
 */
class ExchangeBounds {
  readonly #abort = new AbortController();
  #stop = new AbortController();
  #writtenAt: number | undefined;
  /** The bound that ran out, in words, once one did. */
  hit: string | undefined;

  constructor(
    private readonly clock: Clock,
    guardMs: number,
  ) {
    this.#arm(guardMs, `the request was not written within ${guardMs} ms`);
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** The frame went out: the reply bound starts now (only the first write of an exchange counts). */
  written(replyMs: number, words: string): void {
    if (this.#writtenAt !== undefined) return;
    this.#writtenAt = this.clock.now();
    this.#stop.abort();
    this.#stop = new AbortController();
    this.#arm(replyMs, words);
  }

  /** Milliseconds since the write (since `from` when nothing was written). */
  elapsedSinceWrite(from: number): number {
    return Math.round(this.clock.now() - (this.#writtenAt ?? from));
  }

  stop(): void {
    this.#stop.abort();
  }

  #arm(ms: number, words: string): void {
    this.clock.sleep(ms, this.#stop.signal).then(
      () => {
        this.hit = words;
        this.#abort.abort(new Error(words));
      },
      () => undefined,
    );
  }
}

/** Names the bound that ran out in a deadline failure: the only signal a step passes is its own. */
function boundNamed<T extends { ok: boolean }>(outcome: T, bounds: ExchangeBounds): T {
  const failed = outcome as unknown as { ok: false; failure?: TransportFailure };
  if (failed.ok || failed.failure?.code !== 'deadline' || bounds.hit === undefined) return outcome;
  return { ...outcome, failure: { ...failed.failure, detail: bounds.hit } };
}

/**
 * Which process of a persistent stdio run is warm: one that has answered a request. The first
 * request written to a process that has not is its warm-up, waited for up to `--deadline-ms` plus
 * the warm-up margin; every later one gets `--deadline-ms`. Per_event and HTTP have no warm-up:
 * a per_event process is started for each message, inside the deadline the harness would set.
 */
class Warmth {
  readonly #seen = new Set<number>();
  readonly #warm = new Set<number>();
  #serving: number | undefined;

  constructor(private readonly enabled: boolean) {}

  /** Notes the processes alive at a write; true when the frame went to a process not yet warm. */
  atWrite(livePids: readonly number[]): boolean {
    if (!this.enabled) return false;
    for (const pid of livePids) {
      if (this.#seen.has(pid)) continue;
      this.#seen.add(pid);
      this.#serving = pid;
    }
    return this.#serving !== undefined && !this.#warm.has(this.#serving);
  }

  /** The serving process answered: it is warm from now on. */
  answered(): void {
    if (this.#serving !== undefined) this.#warm.add(this.#serving);
  }
}

/** Sends each step in order on one transport (one backend process for persistent stdio). */
export async function runFrames(specs: readonly FrameSpec[], options: FrameRunOptions): Promise<FrameRun> {
  const { target, clock } = options;
  const secrets = secretsOf(target);
  const frames = new FrameFactory(toolInputsOf(target), () => clock.wallNow());
  const transport = openTransport(target.endpoint, clock, options.killGraceMs);
  const started = clock.now();
  const transcript: TranscriptEntry[] = [];
  const observations: Observation[] = [];
  // Transcript steps count from 1, as people read them; observations keep the step index.
  const record = (index: number, dir: TranscriptEntry['dir'], bytes: Uint8Array | string, noise?: true) => {
    const step = index + 1;
    const atMs = Math.round((clock.now() - started) * 10) / 10;
    let text: string;
    let encoding: 'base64' | undefined;
    if (typeof bytes === 'string') text = bytes;
    else {
      try {
        text = strictUtf8.decode(bytes);
      } catch {
        text = Buffer.from(bytes).toString('base64');
        encoding = 'base64';
      }
    }
    text = redactText(text, secrets);
    const cut = text.length > MAX_EVIDENCE_FRAME_CHARS;
    transcript.push({
      step,
      atMs,
      dir,
      text: cut ? text.slice(0, MAX_EVIDENCE_FRAME_CHARS) : text,
      ...(encoding ? { encoding } : {}),
      ...(cut ? { truncated: true as const } : {}),
      ...(noise ? { noise } : {}),
    });
  };
  const note = (step: number, failure: { code: string; detail: string }) =>
    record(step, 'note', `${failure.code}: ${failure.detail}`);

  const warmth = new Warmth(transport.kind === 'stdio-persistent');
  const warmUpBoundMs = target.deadlineMs + options.warmUpMs;
  let notReady: string | undefined;
  try {
    for (const [step, spec] of specs.entries()) {
      const frame = frames.build(spec);
      const bounds = new ExchangeBounds(clock, warmUpBoundMs);
      let cold = false;
      // Output after the step (a late log line) still comes here until the next step's context
      // takes over, so these arrays stay live after the observation is pushed.
      const noise: Uint8Array[] = [];
      const ctx = (inFrames?: Uint8Array[]) => ({
        signal: bounds.signal,
        onFrame: (dir: 'out' | 'in', raw: Uint8Array) => {
          if (dir === 'out') {
            // Every write notes the processes alive (a notification may have started one).
            const fresh = warmth.atWrite(transport.livePids());
            cold = frame.kind === 'request' && fresh;
            if (cold) {
              record(
                step,
                'note',
                `warm-up: this request is the first to a fresh backend process, so its reply is waited for up to ${warmUpBoundMs} ms (--deadline-ms ${target.deadlineMs} plus ${options.warmUpMs} ms for the process to start), not --deadline-ms`,
              );
            }
            bounds.written(
              cold ? warmUpBoundMs : target.deadlineMs,
              cold
                ? `no reply within the warm-up bound of ${warmUpBoundMs} ms from the write (the first request to a fresh process)`
                : `no reply within --deadline-ms ${target.deadlineMs} from the write`,
            );
          }
          record(step, dir, raw);
          if (dir === 'in') inFrames?.push(raw);
        },
        onNoise: (raw: Uint8Array) => {
          record(step, 'in', raw, true);
          noise.push(raw);
        },
        onLateReply: (raw: Uint8Array) => {
          record(step, 'note', 'a reply arrived after the deadline:');
          record(step, 'in', raw);
        },
      });
      if (frame.kind === 'request') {
        const t0 = clock.now();
        const reply = boundNamed(
          await transport.request(frame.text, ctx()).finally(() => bounds.stop()),
          bounds,
        );
        if (reply.ok || reply.raw !== undefined) warmth.answered();
        if (!reply.ok) note(step, reply.failure);
        observations.push({
          step,
          kind: 'request',
          frame,
          reply,
          elapsedMs: bounds.elapsedSinceWrite(t0),
          pids: transport.livePids(),
          noise,
        });
        if (cold && !reply.ok && reply.failure.code === 'deadline' && intentOf(spec).valid) {
          // A valid request is what the pre-flight saw answered: a process silent on it this long is still starting.
          notReady = `the backend process started for this case did not answer its first request (${describeFrame(spec)}) within the warm-up bound of ${warmUpBoundMs} ms (--deadline-ms ${target.deadlineMs} plus ${options.warmUpMs} ms for the process to start), so it never became ready and nothing could be judged; if it starts this slowly, give it more time with --timeout-scale.`;
          break;
        }
        if (options.stopAfter?.(observations)) break;
        continue;
      }
      const inFrames: Uint8Array[] = [];
      const via = transport.kind === 'stdio-per_event' ? 'request' : 'notify';
      const outcome = boundNamed(
        await (
          via === 'request'
            ? transport.request(frame.text, ctx(inFrames))
            : transport.notify(frame.text, ctx(inFrames))
        ).finally(() => bounds.stop()),
        bounds,
      );
      if (transport.kind === 'stdio-persistent') {
        // Output written in answer to a notification arrives while no request is outstanding:
        // watch for it for a while (real time is unavoidable for a third-party process).
        await clock.sleep(options.silenceWindowMs);
      }
      if (!outcome.ok) note(step, outcome.failure);
      // The array stays live: output that arrives after the window, until the next step takes
      // over the transport's idle output, still belongs to this notification.
      observations.push({ step, kind: 'notification', frame, via, outcome, inFrames, noise });
      if (options.stopAfter?.(observations)) break;
    }
  } finally {
    await transport.close();
  }
  return { observations, transcript, ...(notReady === undefined ? {} : { notReady }) };
}
