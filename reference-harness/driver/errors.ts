import type { JsonValue } from '../../protocol/json.js';

/** JSON-RPC error codes the reference driver answers with (docs/driver-protocol.md). */
export const DRIVER_ERROR_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  invalidParams: -32602,
  notInitialized: -32010,
  notConfigured: -32011,
  harnessClosed: -32012,
  harnessFailure: -32013,
} as const;

/** A call the driver refuses; it becomes a JSON-RPC error with a stable string code in `data.code`. */
export class DriverMethodError extends Error {
  readonly rpcCode: number;
  readonly data: { code: string; [key: string]: JsonValue };

  constructor(rpcCode: number, code: string, message: string, extra: Record<string, JsonValue> = {}) {
    super(message);
    this.name = 'DriverMethodError';
    this.rpcCode = rpcCode;
    this.data = { ...extra, code };
  }
}

/** An `invalid params` refusal naming the offending field. */
export function invalidParams(field: string, message: string): DriverMethodError {
  return new DriverMethodError(DRIVER_ERROR_CODES.invalidParams, 'invalid-params', `${field} ${message}`, {
    field,
  });
}
