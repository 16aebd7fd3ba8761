import type { Clock } from '../../protocol/clock.js';

/** Unscaled per-method timeouts, in milliseconds. */
export interface DriverTimeouts {
  initializeMs: number;
  configureMs: number;
  invokeMs: number;
  closeMs: number;
  /** The liveness request sent after a call timed out (see `DriverClient`). */
  probeMs: number;
}

/**
 * Defaults sized for a slow CI machine: a driver may boot a TypeScript loader (~1 s here) and
 * spawn backends on `configure`; `invoke` covers deadlines and budgets of the registration.
 */
export const DEFAULT_DRIVER_TIMEOUTS: Readonly<DriverTimeouts> = {
  initializeMs: 15_000,
  configureMs: 15_000,
  invokeMs: 30_000,
  closeMs: 15_000,
  probeMs: 5_000,
};

/**
 * Calls in a row the driver leaves unanswered (each past its timeout, its liveness request
 * answered) before the connection counts as ended: a driver that still reads but never answers.
 */
export const MAX_CONSECUTIVE_TIMEOUTS = 3;

/** How long a driver gets between SIGTERM and SIGKILL (scaled like the timeouts). */
export const DEFAULT_DRIVER_KILL_GRACE_MS = 2_000;

/** How much of a driver's stderr is kept for diagnostics. */
export const DEFAULT_STDERR_LIMIT_BYTES = 64 * 1024;

/** Options of a driver client; every timeout is multiplied by `timeoutScale`. */
export interface DriverClientOptions {
  cwd?: string;
  /** The driver's whole environment; left out, the driver inherits the suite's. */
  env?: Record<string, string | undefined>;
  timeoutScale?: number;
  timeouts?: Partial<DriverTimeouts>;
  killGraceMs?: number;
  stderrLimitBytes?: number;
  maxFrameBytes?: number;
  clock?: Clock;
}

/** Per-call options: an unscaled timeout that replaces the method's default. */
export interface DriverCallOptions {
  timeoutMs?: number;
}
