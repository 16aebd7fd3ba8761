import { execa } from 'execa';
import type { Clock } from '../../protocol/clock.js';
import { stopChild } from '../../protocol/stop-child.js';

/** How a backend process ended: it ran and exited, or it never started. */
export type ExitInfo =
  | { kind: 'exited'; code: number | null; signal: string | null }
  | { kind: 'launch-failed'; errorCode: string; message: string };

/** What a transport needs to start one backend process. */
export interface SpawnOptions {
  command: string;
  args: readonly string[];
  cwd?: string;
  /** The complete environment of the child: nothing is inherited. */
  env: Readonly<Record<string, string>>;
  clock: Clock;
  /** How long a SIGTERM may take before SIGKILL. */
  killGraceMs: number;
  onStdout: (chunk: Uint8Array) => void;
  onStdoutEnd: () => void;
}

/** Bytes of stderr kept per process for diagnostics. */
export const STDERR_TAIL_BYTES = 4096;

/** One spawned backend process with an owned, bounded lifecycle. */
export interface BackendProcess {
  /** Undefined when the launch failed. */
  readonly pid: number | undefined;
  /** Resolves true once running, false when the launch failed. Never rejects. */
  readonly started: Promise<boolean>;
  /** Resolves when the process exited or failed to launch. Never rejects. */
  readonly exited: Promise<ExitInfo>;
  /** Resolves once the process exited and all its pipes closed. Never rejects. */
  readonly gone: Promise<void>;
  /** The exit, once seen. */
  exitInfo(): ExitInfo | undefined;
  /** True once `terminate` was called. */
  readonly terminating: boolean;
  /**
   * True when we ended the process: it died of a signal we sent. A backend that exits on its
   * own while we are signalling it keeps its own exit code or signal.
   */
  exitWasOurs(): boolean;
  /** Writes bytes to stdin; resolves with the write error, if any. */
  write(data: string | Uint8Array): Promise<Error | undefined>;
  /** Writes bytes to stdin without a promise (the request path); `onError` hears a failed write. */
  send(data: string | Uint8Array, onError: (error: Error) => void): void;
  endStdin(): void;
  /** The last bytes the process wrote to stderr, decoded leniently. */
  stderrTail(): string;
  /** Ends stdin, SIGTERM, SIGKILL after the grace, and resolves once the process and its pipes are gone. */
  terminate(): Promise<void>;
}

/** Starts the child: argv array, no shell, exactly `env`, streams unbuffered, never rejecting. */
function startChild(options: SpawnOptions) {
  return execa(options.command, [...options.args], {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env: { ...options.env },
    extendEnv: false,
    shell: false,
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    reject: false,
    // Escalation is ours, timed by the injected clock.
    forceKillAfterDelay: false,
  });
}

type Sub = ReturnType<typeof startChild>;

/**
 * Spawns `command` with its argv array (never a shell) and exactly the given environment. Launch
 * errors are values: a synchronous execa error and an async spawn `error` both become `launch-failed`.
 */
export function spawnBackendProcess(options: SpawnOptions): BackendProcess {
  let exit: ExitInfo | undefined;
  let terminating = false;
  let exitWasOurs = false;
  const sentSignals = new Set<string>();
  let terminated: Promise<void> | undefined;
  let stderr = Buffer.alloc(0);
  let resolveStarted!: (ok: boolean) => void;
  let resolveExited!: (info: ExitInfo) => void;
  let resolveClosed!: () => void;
  const started = new Promise<boolean>((r) => (resolveStarted = r));
  const exited = new Promise<ExitInfo>((r) => (resolveExited = r));
  const closed = new Promise<void>((r) => (resolveClosed = r));
  const setExit = (info: ExitInfo) => {
    if (exit) return;
    exit = info;
    exitWasOurs = info.kind === 'exited' && info.signal !== null && sentSignals.has(info.signal);
    resolveExited(info);
  };

  let sub: Sub | undefined;
  try {
    sub = startChild(options);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    setExit({ kind: 'launch-failed', errorCode: e.code ?? 'EINVAL', message: e.message });
    resolveStarted(false);
    resolveClosed();
  }

  if (sub) {
    const child = sub;
    // execa settles its own promise; without reject it never rejects, but stay safe.
    child.catch(() => undefined);
    child.on('spawn', () => resolveStarted(true));
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (child.pid === undefined && !exit) {
        setExit({ kind: 'launch-failed', errorCode: error.code ?? 'UNKNOWN', message: error.message });
        resolveStarted(false);
      }
    });
    child.on('exit', (code, signal) => setExit({ kind: 'exited', code, signal }));
    child.on('close', () => resolveClosed());
    // Writes after the child closed stdin report through the write callback; swallow the event.
    child.stdin?.on('error', () => undefined);
    child.stdout?.on('data', (chunk: Buffer) => options.onStdout(chunk));
    child.stdout?.on('end', () => options.onStdoutEnd());
    child.stdout?.on('error', () => undefined);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = Buffer.concat([stderr, chunk]);
      if (stderr.length > STDERR_TAIL_BYTES) stderr = stderr.subarray(stderr.length - STDERR_TAIL_BYTES);
    });
    child.stderr?.on('error', () => undefined);
  } else {
    queueMicrotask(() => options.onStdoutEnd());
  }

  const killSignal = (signal: 'SIGTERM' | 'SIGKILL') => {
    if (exit || !sub) return;
    sentSignals.add(signal);
    try {
      sub.kill(signal);
    } catch {
      // The process is already gone; its exit event follows.
    }
  };

  const terminate = async (): Promise<void> => {
    terminating = true;
    try {
      sub?.stdin?.end();
    } catch {
      // stdin already closed.
    }
    await stopChild({ signal: killSignal, ended: () => exited }, options.killGraceMs, options.clock);
    await exited;
    // A grandchild may hold the pipes open; the process we own is gone, so release them.
    sub?.stdout?.destroy();
    sub?.stderr?.destroy();
    sub?.stdin?.destroy();
    await closed;
  };

  return {
    pid: sub?.pid,
    started,
    exited,
    gone: closed,
    exitInfo: () => exit,
    get terminating() {
      return terminating;
    },
    exitWasOurs: () => exitWasOurs,
    write(data) {
      return new Promise<Error | undefined>((resolve) => {
        const stdin = sub?.stdin;
        if (!stdin || stdin.destroyed || stdin.writableEnded) {
          resolve(new Error('stdin is closed'));
          return;
        }
        stdin.write(data, (error) => resolve(error ?? undefined));
      });
    },
    send(data, onError) {
      const stdin = sub?.stdin;
      if (!stdin || stdin.destroyed || stdin.writableEnded) {
        onError(new Error('stdin is closed'));
        return;
      }
      stdin.write(data, (error) => {
        if (error) onError(error);
      });
    },
    endStdin() {
      try {
        sub?.stdin?.end();
      } catch {
        // Already closed.
      }
    },
    stderrTail: () => stderr.toString('utf8'),
    terminate() {
      terminated ??= terminate();
      return terminated;
    },
  };
}

/** Describes how a process ended, for failure details. */
export function describeExit(info: ExitInfo | undefined): string {
  if (!info) return 'still running';
  if (info.kind === 'launch-failed') return `launch failed (${info.errorCode})`;
  return info.signal ? `killed by ${info.signal}` : `exited with code ${String(info.code)}`;
}

/** The set of processes a transport spawned, for `livePids` and for reaping on close. */
export class ProcessSet {
  private readonly all = new Set<BackendProcess>();

  add(proc: BackendProcess): void {
    this.all.add(proc);
    // Forget it once the process and its pipes are fully gone, so per-event use stays bounded.
    void proc.gone.then(() => this.all.delete(proc));
  }

  /** Processes not yet fully gone (running, or exited with pipes still open). */
  get size(): number {
    return this.all.size;
  }

  livePids(): number[] {
    const pids: number[] = [];
    for (const p of this.all) if (p.pid !== undefined && !p.exitInfo()) pids.push(p.pid);
    return pids;
  }

  /** Terminates every process (SIGTERM, then SIGKILL after the grace) and waits for all of them. */
  async terminateAll(): Promise<void> {
    await Promise.all([...this.all].map((p) => p.terminate()));
  }

  /** Terminates one process in the background; `terminateAll` still awaits it. */
  retire(proc: BackendProcess): void {
    void proc.terminate();
  }
}
