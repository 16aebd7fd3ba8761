/**
 * The stdio shell: NDJSON lines from stdin become engine frames, the engine's actions become
 * stdout bytes, stderr lines and process exits. Everything process-level goes through a small
 * StdioHost, so the same code runs as a real process and in-process under a ManualClock.
 */
import type { Readable, Writable } from 'node:stream';
import type { Clock } from '../../protocol/clock.js';
import type { Action, InboundFrame, Instant, KillSignal, ProcessSettings } from '../model.js';
import { LineSplitter, type SplitLine } from './line-splitter.js';
import { runActions, type RunOptions } from './scheduler.js';

/** What the stdio shell needs of its process; the CLI builds it from `process`, tests build fakes. */
export interface StdioHost {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  pid: number;
  /** Ends the process with this code (pending stdout bytes were flushed before the call). */
  exit(code: number): void;
  /** Ends the process by this signal. */
  killSelf(signal: KillSignal): void;
  /** Replaces the default SIGTERM action with `handler`. */
  trapSigterm(handler: () => void): void;
  /**
   * Keeps the process running while the mock runs (a hanging exchange has nothing else pending)
   * and calls `whenOrphaned` once the process that started it is gone. Absent: in-process hosts.
   */
  stayAlive?(whenOrphaned: () => void): void;
  /**
   * Closes stdout's file descriptor once `stdout` has ended. Ending a socket pair's stream is
   * enough for its reader to see EOF; a plain OS pipe's reader sees it only when descriptor 1
   * is closed, so a host over a real process closes it here (fakes need not).
   */
  closeStdoutDescriptor?(): void;
}

/** How a process ended, as reported to the control server. */
export interface ExitReport {
  code: number | null;
  signal: KillSignal | null;
}

/**
 * When the process's stdin reached EOF, and how many messages (lines) it had read by then: what a
 * per_event backend needs to tell whether its harness sent exactly one message, then EOF.
 */
export interface StdinEndReport {
  at: Instant;
  messages: number;
}

/**
 * What a link decided for a frame (or for the process start): the actions, and whom to tell as
 * each is carried out, where the recording can show it (see runActions).
 */
export type LinkStep = { actions: readonly Action[] } & Pick<RunOptions, 'performed'>;

/** Where a stdio mock gets its decisions: an in-process core, or the control server. */
export interface StdioLink {
  /** Process start: the process settings and the start actions (banner, refusal). */
  start(context: { pid: number; at: Instant }): Promise<LinkStep & { settings: ProcessSettings }>;
  /** One frame stepped by the engine; resolves with the actions to carry out. */
  step(frame: InboundFrame): Promise<LinkStep>;
  /** The same, synchronously, for links that decide in-process (saves the promise hops per frame). */
  stepNow?(frame: InboundFrame): LinkStep;
  /** Tells whoever keeps the process list that this process is about to end. Never rejects. */
  exited(report: ExitReport): Promise<void>;
  /** Tells whoever keeps the process list that stdin reached EOF. Never rejects. */
  stdinEnded?(report: StdinEndReport): Promise<void>;
}

/** Options of a stdio mock. */
export interface StdioMockOptions {
  clock: Clock;
}

/** Exit code when the mock cannot get its scenario (the control server is unreachable). */
export const EXIT_NO_SCENARIO = 2;

/**
 * Runs a stdio mock until the process ends: at stdin EOF once every exchange is done (a hang
 * keeps it alive until SIGTERM or until its parent is gone), or by a scripted exit or signal. Resolves once the shell has wired itself up.
 */
export async function runStdioMock(
  host: StdioHost,
  link: StdioLink,
  options: StdioMockOptions,
): Promise<void> {
  const shell = new StdioShell(host, link, options.clock);
  await shell.begin();
}

class StdioShell {
  private readonly connectionId: string;
  private readonly lines = new LineSplitter();
  private chain: Promise<void> = Promise.resolve();
  private lastWrite: Promise<void> = Promise.resolve();
  private stdoutOpen = true;
  private active = 0;
  /** Frames waiting on the chain; while any wait, later frames queue behind them. */
  private queued = 0;
  private started = false;
  private hung = false;
  /** Stdin reached EOF (its report may still be on its way). */
  private stdinClosed = false;
  /** Stdin reached EOF and the link was told: the process may end once its exchanges are done. */
  private eof = false;
  private ending = false;
  /** Lines read from stdin so far, each one message as far as the harness is concerned. */
  private messages = 0;

  constructor(
    private readonly host: StdioHost,
    private readonly link: StdioLink,
    private readonly clock: Clock,
  ) {
    this.connectionId = String(host.pid);
  }

  async begin(): Promise<void> {
    // A reader that went away (EPIPE) must not crash the mock: later writes are dropped.
    this.host.stdout.on('error', () => (this.stdoutOpen = false));
    // Listen at once so arrival times are true even while the start round trip is in flight.
    this.host.stdin.on('data', (chunk: Buffer) => {
      const at = this.now();
      for (const line of this.lines.push(chunk)) this.accept(line, at);
    });
    const onEnd = (): void => {
      if (this.stdinClosed) return;
      this.stdinClosed = true;
      const at = this.now();
      for (const line of this.lines.end()) this.accept(line, at);
      const report: StdinEndReport = { at, messages: this.messages };
      // The EOF counts for ending the process only once reported, so no exit overtakes the report.
      this.chain = this.chain
        .then(() => this.link.stdinEnded?.(report))
        .then(() => {
          this.eof = true;
          return this.maybeFinish();
        });
    };
    this.host.stdin.on('end', onEnd);
    this.host.stdin.on('error', onEnd);

    const at = this.now();
    const started = this.link.start({ pid: this.host.pid, at });
    this.chain = started.then(
      async (begun) => {
        this.trapSigterm(begun.settings);
        // Nobody is left to kill an orphan: it ends as it would on SIGTERM.
        this.host.stayAlive?.(() => void this.finish({ code: 0, signal: null }));
        await runActions(begun.actions, {
          clock: this.clock,
          arrival: at.monotonic,
          perform: (a) => this.perform(a),
          ...(begun.performed ? { performed: begun.performed } : {}),
        });
        this.started = true;
      },
      (e: unknown) => {
        this.log(`mock-backend: cannot start: ${describe(e)}`);
        this.ending = true;
        this.host.exit(EXIT_NO_SCENARIO);
      },
    );
    await this.chain;
  }

  private now(): Instant {
    return { monotonic: this.clock.now(), wall: this.clock.wallNow() };
  }

  private accept(line: SplitLine, at: Instant): void {
    this.active++;
    this.messages++;
    const frame: InboundFrame = {
      bytes: line.bytes,
      transport: 'stdio',
      connectionId: this.connectionId,
      at,
    };
    if (line.fault) frame.fault = line.fault;
    if (this.started && this.queued === 0 && this.link.stepNow) {
      this.carryOut(this.link.stepNow(frame), at);
      return;
    }
    // Steps are serialized so deliveries are numbered in arrival order; action runs are not,
    // so a slow reply to one frame never holds back the next frame's reply.
    this.queued++;
    this.chain = this.chain.then(async () => {
      let decided: LinkStep;
      try {
        decided = await this.link.step(frame);
      } catch (e) {
        this.log(`mock-backend: cannot interpret a frame: ${describe(e)}`);
        decided = { actions: [] };
      }
      this.queued--;
      this.carryOut(decided, at);
    });
  }

  private carryOut(decided: LinkStep, at: Instant): void {
    void runActions(decided.actions, {
      clock: this.clock,
      arrival: at.monotonic,
      perform: (a) => this.perform(a),
      ...(decided.performed ? { performed: decided.performed } : {}),
    }).then((outcome) => {
      if (outcome === 'hung') this.hung = true;
      this.active--;
      return this.maybeFinish();
    });
  }

  private perform(action: Action): void | Promise<void> {
    switch (action.type) {
      case 'write':
        this.write(action.bytes);
        return;
      case 'log':
        this.log(action.text);
        return;
      case 'reset':
        return this.closeStdout();
      case 'exit':
        return this.finish({ code: action.code, signal: null });
      case 'signal':
        return this.finish({ code: null, signal: action.signal });
      // `head` is never emitted for stdio; `end` and `hang` only shape the run's outcome.
      default:
        return;
    }
  }

  private write(bytes: Uint8Array): void {
    const out = this.host.stdout;
    if (!this.stdoutOpen || out.writableEnded || out.destroyed) return;
    this.lastWrite = new Promise<void>((resolve) => {
      out.write(bytes, () => resolve());
    });
  }

  private async closeStdout(): Promise<void> {
    if (!this.stdoutOpen) return;
    this.stdoutOpen = false;
    await this.lastWrite;
    await new Promise<void>((resolve) => this.host.stdout.end(() => resolve()));
    this.host.closeStdoutDescriptor?.();
  }

  private log(text: string): void {
    this.host.stderr.write(`${text}\n`);
  }

  private trapSigterm(settings: ProcessSettings): void {
    this.host.trapSigterm(() => {
      if (settings.ignoreSigterm) this.log('mock-backend: ignoring SIGTERM (scenario setting)');
      // A clean end, as a backend asked to stop gives: exit 0 (a hanging exchange included).
      else void this.finish({ code: 0, signal: null });
    });
  }

  /** At EOF with every exchange done and none hanging, the process ends with 0. */
  private async maybeFinish(): Promise<void> {
    if (this.eof && this.active === 0 && !this.hung) await this.finish({ code: 0, signal: null });
  }

  private async finish(report: ExitReport): Promise<void> {
    if (this.ending) return;
    this.ending = true;
    await this.lastWrite;
    await this.link.exited(report);
    if (report.signal !== null) this.host.killSelf(report.signal);
    else this.host.exit(report.code ?? 0);
  }
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
