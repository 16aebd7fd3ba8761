import { systemClock, type Clock } from '../../protocol/clock.js';
import type { JsonValue } from '../../protocol/json.js';
import { checkResponseEnvelope } from '../../protocol/jsonrpc.js';
import type { NdjsonItem } from '../../protocol/ndjson.js';
import {
  DEFAULT_DRIVER_KILL_GRACE_MS,
  DEFAULT_DRIVER_TIMEOUTS,
  DEFAULT_STDERR_LIMIT_BYTES,
  MAX_CONSECUTIVE_TIMEOUTS,
  type DriverCallOptions,
  type DriverClientOptions,
  type DriverTimeouts,
} from './client-options.js';
import { scaledMs } from '../common/scale.js';
import { DriverProcess, type DriverExit } from './driver-process.js';
import {
  DriverCallError,
  DriverProtocolError,
  DriverTimeoutError,
  DriverUnavailableError,
  type DriverUnavailableReason,
} from './errors.js';
import type {
  ConfigureParams,
  ConfigureResult,
  DriverMethod,
  InitializeParams,
  InitializeResult,
  InvokeParams,
  InvokeResult,
} from './shapes.js';
import {
  checkCloseResult,
  checkConfigureResult,
  checkInitializeResult,
  checkInvokeResult,
  type ShapeCheck,
} from './validate.js';

interface Pending {
  method: DriverMethod | typeof LIVENESS_METHOD;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/**
 * The method of the liveness request: not a v1 method, so a driver that still reads its stdin
 * answers it with -32601 (any answer will do).
 */
export const LIVENESS_METHOD = 'ahp-conformance/liveness';

const TIMEOUT_KEYS: Record<DriverMethod, keyof DriverTimeouts> = {
  initialize: 'initializeMs',
  configure: 'configureMs',
  invoke: 'invokeMs',
  close: 'closeMs',
};

const CHECKS: Record<DriverMethod, (value: JsonValue | undefined) => ShapeCheck<unknown>> = {
  initialize: checkInitializeResult,
  configure: checkConfigureResult,
  invoke: checkInvokeResult,
  close: checkCloseResult,
};

function describeCommand(argv: readonly string[]): string {
  const text = argv.join(' ');
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function snippet(bytes: Uint8Array): string {
  const text = Buffer.from(bytes).toString('utf8').replace(/\s+/g, ' ').trim();
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * The suite's side of the harness driver protocol (v1): spawns the driver as an argv array and
 * speaks JSON-RPC 2.0, one object per line, on its stdin/stdout. Framing and envelopes are checked
 * here rather than by a JSON-RPC library, because a library would silently drop what we must
 * report (an unknown id, a malformed envelope) as a driver defect.
 */
export class DriverClient {
  private readonly process: DriverProcess;
  private readonly clock: Clock;
  private readonly scale: number;
  private readonly timeouts: DriverTimeouts;
  private readonly killGraceMs: number;
  private readonly pending = new Map<number, Pending>();
  /** Ids whose call timed out: a reply to them arrives late and is ignored. */
  private readonly abandoned = new Set<number>();
  private nextId = 1;
  private failure: Error | undefined;
  /** Calls timed out since the driver last answered one. */
  private consecutiveTimeouts = 0;
  /** The liveness request in flight, shared by calls that time out together. */
  private probing: Promise<boolean> | undefined;
  private disposal: Promise<void> | undefined;

  /** Spawns the driver; calls fail with `DriverUnavailableError` if it cannot start or dies. */
  constructor(
    readonly command: readonly string[],
    options: DriverClientOptions = {},
  ) {
    const scale = options.timeoutScale ?? 1;
    if (!(scale > 0) || !Number.isFinite(scale))
      throw new RangeError('timeoutScale must be a positive number');
    this.scale = scale;
    this.clock = options.clock ?? systemClock;
    this.timeouts = { ...DEFAULT_DRIVER_TIMEOUTS, ...options.timeouts };
    this.killGraceMs = scaledMs(options.killGraceMs ?? DEFAULT_DRIVER_KILL_GRACE_MS, scale);
    this.process = new DriverProcess(
      command,
      {
        stderrLimitBytes: options.stderrLimitBytes ?? DEFAULT_STDERR_LIMIT_BYTES,
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        ...(options.env === undefined ? {} : { env: options.env }),
        ...(options.maxFrameBytes === undefined ? {} : { maxFrameBytes: options.maxFrameBytes }),
      },
      { onLine: (item) => this.onLine(item), onExit: (exit) => this.onExit(exit) },
    );
  }

  /** The driver's PID, or undefined when it never started. */
  get pid(): number | undefined {
    return this.process.pid;
  }

  /** True once the driver process is gone. */
  get exited(): boolean {
    return this.process.exited;
  }

  /** How the driver process ended (exit code or signal), once it has. */
  get exit(): DriverExit | undefined {
    return this.process.exit;
  }

  /** The error that ended the connection (the driver exited, stopped answering, broke the framing). */
  get ended(): Error | undefined {
    return this.failure;
  }

  /** The last bytes the driver wrote on stderr (bounded). */
  stderrText(): string {
    return this.process.stderrText();
  }

  /** A mark for `stderrSince` (bytes written on stderr so far). */
  stderrMark(): number {
    return this.process.stderrMark();
  }

  /** What the driver wrote on stderr after `mark` (bounded). */
  stderrSince(mark: number): string {
    return this.process.stderrSince(mark);
  }

  /** `initialize`: every failure here means the driver cannot be exercised. */
  async initialize(params: InitializeParams, options: DriverCallOptions = {}): Promise<InitializeResult> {
    try {
      return (await this.call('initialize', params, options)) as InitializeResult;
    } catch (error) {
      if (error instanceof DriverCallError) {
        throw this.unavailable(
          'initialize-refused',
          `refused "initialize" (JSON-RPC error ${error.rpcCode}: ${error.rpcMessage})`,
        );
      }
      if (error instanceof DriverTimeoutError) {
        throw this.unavailable(
          'initialize-timeout',
          `did not answer "initialize" within ${Math.round(error.timeoutMs)} ms; check that it reads JSON-RPC lines on stdin and answers on stdout`,
        );
      }
      throw error;
    }
  }

  /** `configure`: hands the harness a registration; a refusal is a result, not an error. */
  configure(params: ConfigureParams, options: DriverCallOptions = {}): Promise<ConfigureResult> {
    return this.call('configure', params, options) as Promise<ConfigureResult>;
  }

  /** `invoke`: asks the harness to raise one `tool.before` and reports how it settled. */
  invoke(params: InvokeParams, options: DriverCallOptions = {}): Promise<InvokeResult> {
    return this.call('invoke', params, options) as Promise<InvokeResult>;
  }

  /** `close`: resolves once the harness reports its shutdown complete. */
  async close(options: DriverCallOptions = {}): Promise<void> {
    await this.call('close', {}, options);
  }

  /** Kills the driver (SIGTERM, then SIGKILL after the grace) and fails pending calls; safe twice. */
  dispose(): Promise<void> {
    this.disposal ??= (async () => {
      this.fail(
        new DriverUnavailableError('disposed', 'The driver was disposed; start a new driver to continue.'),
      );
      await this.process.terminate(this.killGraceMs, this.clock);
    })();
    return this.disposal;
  }

  private async call(method: DriverMethod, params: object, options: DriverCallOptions): Promise<unknown> {
    if (this.failure) throw this.failure;
    const id = this.nextId++;
    const timeoutMs = scaledMs(options.timeoutMs ?? this.timeouts[TIMEOUT_KEYS[method]], this.scale);
    const stopTimer = new AbortController();
    const reply = new Promise<unknown>((resolve, reject) =>
      this.pending.set(id, { method, resolve, reject }),
    );
    const timer = this.clock.sleep(timeoutMs, stopTimer.signal).then(
      async () => {
        if (!this.pending.delete(id)) return;
        this.abandoned.add(id);
        if (method !== 'initialize') await this.stillAnswering(method, timeoutMs);
        throw new DriverTimeoutError(method, timeoutMs);
      },
      () => undefined,
    );
    this.process.writeLine(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    try {
      return await Promise.race([reply, timer.then(() => reply)]);
    } finally {
      stopTimer.abort();
    }
  }

  /**
   * After `method` timed out: ends the connection (throwing why) when the driver no longer answers,
   * that is when it leaves a liveness request unanswered too, or when this is the
   * `MAX_CONSECUTIVE_TIMEOUTS`th call in a row it left unanswered. Otherwise the timeout is the
   * call's own (a harness that never settles it) and the case decides.
   */
  private async stillAnswering(method: DriverMethod, timeoutMs: number): Promise<void> {
    this.consecutiveTimeouts++;
    const waited = `"${method}" within ${Math.round(timeoutMs)} ms`;
    const fix =
      'fix the driver so that it reads its stdin and answers every request, or raise --timeout-scale if the machine is slow';
    if (this.consecutiveTimeouts >= MAX_CONSECUTIVE_TIMEOUTS) {
      this.fail(
        this.unavailable(
          'unresponsive',
          `left ${this.consecutiveTimeouts} calls in a row unanswered (the last: ${waited}); ${fix}`,
        ),
      );
    } else {
      this.probing ??= this.probe().finally(() => {
        this.probing = undefined;
      });
      const probeMs = scaledMs(this.timeouts.probeMs, this.scale);
      if (!(await this.probing)) {
        this.fail(
          this.unavailable(
            'unresponsive',
            `did not answer ${waited}, nor a liveness request within ${Math.round(probeMs)} ms; ${fix}`,
          ),
        );
      }
    }
    if (this.failure) throw this.failure;
  }

  /** Sends a liveness request; true when the driver answers it at all, in time. */
  private async probe(): Promise<boolean> {
    if (this.failure) return false;
    const id = this.nextId++;
    const stop = new AbortController();
    const answered = new Promise<boolean>((resolve) =>
      this.pending.set(id, {
        method: LIVENESS_METHOD,
        resolve: () => resolve(true),
        reject: () => resolve(true),
      }),
    );
    const expired = this.clock.sleep(scaledMs(this.timeouts.probeMs, this.scale), stop.signal).then(
      () => false,
      () => false,
    );
    this.process.writeLine(JSON.stringify({ jsonrpc: '2.0', id, method: LIVENESS_METHOD }));
    const alive = await Promise.race([answered, expired]);
    stop.abort();
    if (!alive && this.pending.delete(id)) this.abandoned.add(id);
    return alive;
  }

  private onLine(item: NdjsonItem): void {
    if (this.failure) return;
    if (item.kind === 'fault') {
      const shown = item.bytes.length > 0 ? ` ("${snippet(item.bytes)}")` : '';
      this.fail(
        this.unavailable(
          'stdout-not-json',
          `wrote a line on stdout that is not a JSON-RPC message${shown} (${item.message}); drivers must keep stdout for JSON-RPC and log on stderr`,
        ),
      );
      return;
    }
    const envelope = checkResponseEnvelope(item.value);
    const rawId =
      typeof item.value === 'object' && item.value !== null && !Array.isArray(item.value)
        ? item.value.id
        : undefined;
    const target = typeof rawId === 'number' ? this.pending.get(rawId) : undefined;
    if (envelope.kind === 'invalid') {
      const problems = envelope.violations.map((v) => ({ field: v.path, message: v.message }));
      if (target && typeof rawId === 'number') {
        this.pending.delete(rawId);
        target.reject(new DriverProtocolError(target.method, problems));
      } else {
        this.fail(new DriverProtocolError(this.soleMethod(), problems, true));
      }
      return;
    }
    if (typeof envelope.id === 'number' && this.abandoned.delete(envelope.id)) return;
    if (!target || typeof rawId !== 'number') {
      const message =
        envelope.kind === 'error' && envelope.id === null
          ? `is an error with a null id (${envelope.error.message}): the driver could not read a request`
          : 'matches no outstanding request';
      this.fail(new DriverProtocolError(this.soleMethod(), [{ field: '$.id', message }], true));
      return;
    }
    this.pending.delete(rawId);
    if (target.method !== LIVENESS_METHOD) this.consecutiveTimeouts = 0;
    if (target.method === LIVENESS_METHOD) {
      target.resolve(undefined);
      return;
    }
    if (envelope.kind === 'error') {
      target.reject(new DriverCallError(target.method, envelope.error));
      return;
    }
    const check = CHECKS[target.method](envelope.result);
    if (check.ok) target.resolve(check.value);
    else target.reject(new DriverProtocolError(target.method, check.problems));
  }

  private onExit(exit: DriverExit): void {
    if (exit.spawnError !== undefined) {
      this.fail(
        new DriverUnavailableError(
          'spawn-failed',
          `The driver command "${describeCommand(this.command)}" could not be started (${exit.spawnError}); check that the command after "--" exists and is executable.`,
          { stderr: this.process.stderrText() },
        ),
      );
      return;
    }
    const how = exit.signal !== undefined ? `on signal ${exit.signal}` : `with exit code ${exit.exitCode}`;
    const waiting = [...this.pending.values()].map((p) => `"${p.method}"`);
    const when = waiting.length > 0 ? ` while the suite waited for ${waiting.join(', ')}` : '';
    const error = this.unavailable(
      'exited',
      `exited ${how}${when}; a driver must keep answering until the suite closes its stdin, so run it by hand to see why it stops`,
      exit,
    );
    this.fail(error);
  }

  private soleMethod(): string {
    const methods = [...new Set([...this.pending.values()].map((p) => p.method))];
    return methods.length === 1 ? (methods[0] as string) : 'an unknown request';
  }

  private unavailable(
    reason: DriverUnavailableReason,
    what: string,
    exit: DriverExit = {},
  ): DriverUnavailableError {
    return new DriverUnavailableError(reason, `The driver "${describeCommand(this.command)}" ${what}.`, {
      stderr: this.process.stderrText(),
      exitCode: exit.exitCode,
      signal: exit.signal,
    });
  }

  /** Marks the connection unusable: every pending and later call fails with `error`. */
  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.reject(error);
  }
}
