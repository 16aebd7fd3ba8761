import { childPath, isJsonObject, type JsonObject, type JsonValue, type Violation } from './json.js';
import type { JsonRpcErrorObject, JsonRpcId } from './wire-types.js';

const RPC = 'AHP-RPC-001';

/** The outcome of checking a message that should be a JSON-RPC response. */
export type EnvelopeCheck =
  | { kind: 'result'; id: JsonRpcId; result: JsonValue }
  | { kind: 'error'; id: JsonRpcId; error: JsonRpcErrorObject }
  | { kind: 'invalid'; violations: Violation[] };

/** The outcome of checking a message that should be a JSON-RPC request or notification. */
export type InboundCheck =
  | { kind: 'request'; id: string | number; method: string; params: JsonValue | undefined }
  | { kind: 'notification'; method: string; params: JsonValue | undefined }
  | { kind: 'invalid'; violations: Violation[] };

/** True for a JSON-RPC request id as the common schema allows it: a non-empty string or an integer. */
export function isRequestId(value: unknown): value is string | number {
  return (
    (typeof value === 'string' && value.length > 0) ||
    (typeof value === 'number' && Number.isSafeInteger(value))
  );
}

/** True for a response id: a request id or `null` (the reply to an unparseable request). */
export function isResponseId(value: unknown): value is JsonRpcId {
  return value === null || isRequestId(value);
}

/** Exact id equality: the string "1" and the number 1 are different ids. */
export function idsEqual(a: JsonRpcId, b: JsonRpcId): boolean {
  return typeof a === typeof b && a === b;
}

function violation(path: string, message: string): Violation {
  return { path, message, requirement: RPC };
}

/** Checks what every JSON-RPC 2.0 message shares: one object (never a batch) with `jsonrpc: "2.0"`. */
function checkCommon(value: JsonValue, out: Violation[]): value is JsonObject {
  if (Array.isArray(value)) {
    out.push(violation('$', 'batch JSON-RPC messages are forbidden in AHP'));
    return false;
  }
  if (!isJsonObject(value)) {
    out.push(violation('$', 'a JSON-RPC message must be an object'));
    return false;
  }
  if (value.jsonrpc !== '2.0') out.push(violation('$.jsonrpc', 'jsonrpc must be exactly "2.0"'));
  return true;
}

/** Checks a JSON-RPC error object: `{code: integer, message: string, data?}`. */
export function checkErrorObject(value: JsonValue | undefined, path = '$.error'): Violation[] {
  if (!isJsonObject(value)) return [violation(path, 'error must be an object')];
  const out: Violation[] = [];
  if (typeof value.code !== 'number' || !Number.isInteger(value.code)) {
    out.push(violation(childPath(path, 'code'), 'error.code must be an integer'));
  }
  if (typeof value.message !== 'string')
    out.push(violation(childPath(path, 'message'), 'error.message must be a string'));
  return out;
}

/**
 * Checks a response envelope (AHP-RPC-001): exactly one of `result` and `error`, a valid id
 * (null allowed), and a well-formed error object. Never throws.
 */
export function checkResponseEnvelope(value: JsonValue): EnvelopeCheck {
  const out: Violation[] = [];
  if (!checkCommon(value, out)) return { kind: 'invalid', violations: out };
  const hasResult = Object.hasOwn(value, 'result');
  const hasError = Object.hasOwn(value, 'error');
  if (Object.hasOwn(value, 'method')) out.push(violation('$.method', 'a response must not carry a method'));
  if (hasResult && hasError) out.push(violation('$', 'a response must not carry both result and error'));
  if (!hasResult && !hasError) out.push(violation('$', 'a response must carry result or error'));
  if (!Object.hasOwn(value, 'id')) out.push(violation('$.id', 'a response must carry an id'));
  else if (!isResponseId(value.id)) {
    out.push(violation('$.id', 'a response id must be a non-empty string, an integer or null'));
  }
  if (hasError && !hasResult) out.push(...checkErrorObject(value.error));
  if (out.length > 0) return { kind: 'invalid', violations: out };
  const id = value.id as JsonRpcId;
  if (hasResult) return { kind: 'result', id, result: value.result as JsonValue };
  const err = value.error as JsonObject;
  const error: JsonRpcErrorObject = { code: err.code as number, message: err.message as string };
  if (Object.hasOwn(err, 'data')) error.data = err.data as JsonValue;
  return { kind: 'error', id, error };
}

/**
 * Checks a request or notification envelope (AHP-RPC-001): a method string, params an object
 * or array when present, and for a request a non-empty string or integer id. Never throws.
 */
export function checkRequestEnvelope(value: JsonValue): InboundCheck {
  const out: Violation[] = [];
  if (!checkCommon(value, out)) return { kind: 'invalid', violations: out };
  if (typeof value.method !== 'string' || value.method.length === 0) {
    out.push(violation('$.method', 'method must be a non-empty string'));
  }
  if (Object.hasOwn(value, 'result') || Object.hasOwn(value, 'error')) {
    out.push(violation('$', 'a request must not carry result or error'));
  }
  const params = value.params;
  if (params !== undefined && !isJsonObject(params) && !Array.isArray(params)) {
    out.push(violation('$.params', 'params must be an object or an array'));
  }
  const hasId = Object.hasOwn(value, 'id');
  if (hasId && !isRequestId(value.id)) {
    out.push(violation('$.id', 'a request id must be a non-empty string or an integer'));
  }
  if (out.length > 0) return { kind: 'invalid', violations: out };
  const method = value.method as string;
  if (hasId) return { kind: 'request', id: value.id as string | number, method, params };
  return { kind: 'notification', method, params };
}
