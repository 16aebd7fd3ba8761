import { execa } from 'execa';
import type { Clock } from '../../protocol/clock.js';
import { stopChild } from '../../protocol/stop-child.js';
import { NdjsonDecoder, type NdjsonItem } from '../../protocol/ndjson.js';
import { BoundedTail } from './bounded-tail.js';

/** How a driver process ended (or never started). */
export interface DriverExit {
  /** The spawn error code (e.g. `ENOENT`) when the process never started. */
  spawnError?: string;
  exitCode?: number;
  signal?: string;
}

/** Where a driver process reports what it does. */
export interface DriverProcessEvents {
  /** Every complete stdout line, decoded, or a framing fault (not JSON, bad UTF-8, too large). */
  onLine(item: NdjsonItem): void;
  /** Called once, after stdout has been drained, when the process is gone. */
  onExit(exit: DriverExit): void;
}

/** Spawn settings for a driver process. */
export interface DriverProcessOptions {
  cwd?: string;
  /** The driver's whole environment; when left out, the driver inherits the suite's. */
  env?: Record<string, string | undefined>;
  stderrLimitBytes: number;
  maxFrameBytes?: number;
}

/** Spawns with pipes on all three streams, no buffering and no rejection: failures are values. */
function spawn(file: string, args: string[], options: DriverProcessOptions) {
  return execa(file, args, {
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    reject: false,
    // Escalation is ours (terminate), timed by the injected clock.
    forceKillAfterDelay: false,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    // Without an explicit environment the driver inherits the suite's (execa's default).
    ...(options.env === undefined ? {} : { env: options.env, extendEnv: false }),
  });
}

/**
 * A driver program as a child process: an argv array (no shell), stdout decoded as NDJSON with
 * fatal UTF-8, stderr kept as a bounded tail. It knows nothing of JSON-RPC.
 */
export class DriverProcess {
  private readonly sub: ReturnType<typeof spawn>;
  private readonly stderrTail: BoundedTail;
  private readonly decoder: NdjsonDecoder;
  private readonly settled: Promise<void>;
  private gone = false;
  private exitInfo: DriverExit | undefined;
  private terminating: Promise<void> | undefined;

  constructor(
    readonly argv: readonly string[],
    options: DriverProcessOptions,
    private readonly events: DriverProcessEvents,
  ) {
    const [file, ...args] = argv;
    if (file === undefined || file === '')
      throw new RangeError('a driver command needs at least one argument');
    this.stderrTail = new BoundedTail(options.stderrLimitBytes);
    this.decoder = new NdjsonDecoder(
      options.maxFrameBytes === undefined ? {} : { maxFrameBytes: options.maxFrameBytes },
    );
    this.sub = spawn(file, args, options);
    // Writing to a driver that already died raises EPIPE here; the exit path reports it.
    this.sub.stdin.on('error', () => {});
    this.sub.stdout.on('data', (chunk: Buffer) => {
      for (const item of this.decoder.push(chunk)) this.events.onLine(item);
    });
    this.sub.stderr.on('data', (chunk: Buffer) => this.stderrTail.push(chunk));
    this.settled = this.sub.then((result) => {
      for (const item of this.decoder.end()) this.events.onLine(item);
      this.gone = true;
      const exit: DriverExit = {};
      if (result.exitCode !== undefined) exit.exitCode = result.exitCode;
      if (result.signal !== undefined) exit.signal = result.signal;
      if (result.exitCode === undefined && result.signal === undefined) {
        exit.spawnError = typeof result.code === 'string' ? result.code : 'spawn-error';
      }
      this.exitInfo = exit;
      this.events.onExit(exit);
    });
  }

  /** The driver's PID, or undefined when it never started. */
  get pid(): number | undefined {
    return this.sub.pid;
  }

  /** True once the process has been seen to exit (or failed to start). */
  get exited(): boolean {
    return this.gone;
  }

  /** How the process ended, once it has. */
  get exit(): DriverExit | undefined {
    return this.exitInfo;
  }

  /** The last bytes of the driver's stderr. */
  stderrText(): string {
    return this.stderrTail.text();
  }

  /** A mark for `stderrSince`: how many bytes the driver has written on stderr so far. */
  stderrMark(): number {
    return this.stderrTail.total;
  }

  /** What the driver wrote on stderr after `mark` (bounded like the tail). */
  stderrSince(mark: number): string {
    return this.stderrTail.textSince(mark);
  }

  /** Writes one line to the driver's stdin; a dead driver is reported through `onExit` instead. */
  writeLine(text: string): void {
    if (this.gone || this.sub.stdin.destroyed || this.sub.stdin.writableEnded) return;
    this.sub.stdin.write(`${text}\n`);
  }

  /**
   * Ends the process: closes stdin, sends SIGTERM, and SIGKILL if it is still there after
   * `graceMs`. Resolves once the exit was observed; safe to call any number of times.
   */
  terminate(graceMs: number, clock: Clock): Promise<void> {
    this.terminating ??= (async () => {
      if (!this.gone) {
        this.sub.stdin.end();
        await stopChild(
          {
            signal: (name) => {
              if (!this.gone) this.sub.kill(name);
            },
            ended: () => this.settled,
          },
          graceMs,
          clock,
        );
      }
      await this.settled;
    })();
    return this.terminating;
  }
}
