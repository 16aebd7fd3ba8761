import type { JsonValue } from '../../protocol/json.js';
import type { ShapeProblem } from './validate.js';

/** Why a driver could not be exercised. */
export type DriverUnavailableReason =
  | 'spawn-failed'
  | 'exited'
  | 'stdout-not-json'
  | 'initialize-timeout'
  | 'initialize-refused'
  | 'unsupported-version'
  | 'disposed';

/**
 * The driver cannot be exercised at all: it did not start, exited, polluted stdout, or never
 * answered `initialize`. The CLI maps it to exit code 3. The message is one sentence; the
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

  constructor(method: string, problems: ShapeProblem[]) {
    const first = problems[0] ?? { field: '$', message: 'is malformed' };
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem(s))` : '';
    super(
      `The driver's reply to "${method}" is malformed: ${first.field} ${first.message}${more}; fix the driver to send the v1 shape (docs/driver-protocol.md).`,
    );
    this.name = 'DriverProtocolError';
    this.method = method;
    this.field = first.field;
    this.problems = problems;
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
