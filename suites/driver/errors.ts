import type { JsonValue } from '../../protocol/json.js';
import type { ShapeProblem } from './validate.js';

/** Why a driver could not be exercised. */
export type DriverUnavailableReason =
  | 'spawn-failed'
  | 'exited'
  | 'unresponsive'
  | 'stdout-not-json'
  | 'initialize-timeout'
  | 'initialize-refused'
  | 'unsupported-version'
  | 'disposed';

/**
 * The driver cannot be exercised at all: it did not start, exited, polluted stdout, never
 * answered `initialize`, or stopped answering. The CLI maps it to exit code 3, before or during
 * a run. The message is one sentence; the
 * driver's stderr tail is kept apart for diagnostics.
 */
export class DriverUnavailableError extends Error {
  readonly code = 'driver-unavailable';
  readonly reason: DriverUnavailableReason;
  /** The last bytes the driver wrote on stderr, as text. */
  readonly stderr: string;
  readonly exitCode: number | undefined;
  readonly signal: string | undefined;

  constructor(
    reason: DriverUnavailableReason,
    message: string,
    extra: { stderr?: string; exitCode?: number | undefined; signal?: string | undefined } = {},
  ) {
    super(message);
    this.name = 'DriverUnavailableError';
    this.reason = reason;
    this.stderr = extra.stderr ?? '';
    this.exitCode = extra.exitCode;
    this.signal = extra.signal;
  }
}

/** A driver reply that is not what v1 defines; `field` names the first offending member. */
export class DriverProtocolError extends Error {
  readonly code = 'driver-protocol';
  readonly method: string;
  readonly field: string;
  readonly problems: ShapeProblem[];
  /** True when the reply could not be tied to a request, which ends the connection. */
  readonly endsConnection: boolean;

  constructor(method: string, problems: ShapeProblem[], endsConnection = false) {
    const first = problems[0] ?? { field: '$', message: 'is malformed' };
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem(s))` : '';
    super(
      `The driver's reply to "${method}" is malformed: ${first.field} ${first.message}${more}; fix the driver to send the v1 shape (docs/driver-protocol.md).`,
    );
    this.name = 'DriverProtocolError';
    this.method = method;
    this.field = first.field;
    this.problems = problems;
    this.endsConnection = endsConnection;
  }
}

/** The driver answered a call with a JSON-RPC error (for example `invoke` after `close`). */
export class DriverCallError extends Error {
  readonly code = 'driver-call-error';
  readonly method: string;
  readonly rpcCode: number;
  readonly rpcMessage: string;
  readonly data: JsonValue | undefined;

  constructor(method: string, error: { code: number; message: string; data?: JsonValue }) {
    super(`The driver answered "${method}" with JSON-RPC error ${error.code}: ${error.message}`);
    this.name = 'DriverCallError';
    this.method = method;
    this.rpcCode = error.code;
    this.rpcMessage = error.message;
    this.data = error.data;
  }
}

/** The driver did not answer a call (other than `initialize`) within its scaled timeout. */
export class DriverTimeoutError extends Error {
  readonly code = 'driver-timeout';
  readonly method: string;
  readonly timeoutMs: number;

  constructor(method: string, timeoutMs: number) {
    super(
      `The driver did not answer "${method}" within ${Math.round(timeoutMs)} ms; raise --timeout-scale if the machine is slow, or check that the harness settles every call.`,
    );
    this.name = 'DriverTimeoutError';
    this.method = method;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * True when `error` (or an error it wraps) means the driver can no longer be exercised: it exited,
 * stopped answering, or broke the connection's framing. Then the run stops (exit 3) rather than
 * blaming the harness; a disposal is the suite's own doing and does not count.
 */
export function endsDriverConnection(
  error: unknown,
): DriverUnavailableError | DriverProtocolError | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (e instanceof DriverUnavailableError && e.reason !== 'disposed') return e;
    if (e instanceof DriverProtocolError && e.endsConnection) return e;
  }
  return undefined;
}
