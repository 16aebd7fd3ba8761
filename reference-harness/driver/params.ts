import { isJsonObject, type JsonObject, type JsonValue } from '../../protocol/json.js';
import type { InvokeInput } from '../index.js';
import { invalidParams } from './errors.js';

/** `initialize` params. */
export interface InitializeParams {
  protocolVersion: string;
  suiteVersion: string;
}

/** `configure` params. */
export interface ConfigureParams {
  registration: JsonValue;
  retries?: number;
}

/** `invoke` params, turned into the harness's input. */
export interface InvokeParams {
  input: InvokeInput;
  budgetMs?: number;
  cancelAfterMs?: number;
}

function object(value: unknown, field: string): JsonObject {
  if (!isJsonObject(value as JsonValue)) throw invalidParams(field, 'must be an object');
  return value as JsonObject;
}

function duration(obj: JsonObject, key: string): number | undefined {
  const value = obj[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw invalidParams(`params.${key}`, 'must be a non-negative number of milliseconds');
  }
  return value;
}

/** Checks `initialize` params. */
export function parseInitialize(params: unknown): InitializeParams {
  const p = object(params, 'params');
  for (const key of ['protocolVersion', 'suiteVersion'] as const) {
    if (typeof p[key] !== 'string') throw invalidParams(`params.${key}`, 'must be a string');
  }
  return { protocolVersion: p.protocolVersion as string, suiteVersion: p.suiteVersion as string };
}

/** Checks `configure` params; the registration itself is judged by the harness. */
export function parseConfigure(params: unknown): ConfigureParams {
  const p = object(params, 'params');
  if (!Object.hasOwn(p, 'registration')) throw invalidParams('params.registration', 'is missing');
  const out: ConfigureParams = { registration: p.registration as JsonValue };
  if (p.retries !== undefined) {
    if (typeof p.retries !== 'number' || !Number.isSafeInteger(p.retries) || p.retries < 0) {
      throw invalidParams('params.retries', 'must be a non-negative integer');
    }
    out.retries = p.retries;
  }
  return out;
}

/**
 * Checks `invoke` params. Only the envelope of the request is checked here: the event's session,
 * call and tool go to the harness as given, so that the harness's own validation is what judges them.
 */
export function parseInvoke(params: unknown): InvokeParams {
  const p = object(params, 'params');
  const event = object(p.event, 'params.event');
  if (event.type !== undefined && event.type !== 'tool.before') {
    throw invalidParams('params.event.type', 'must be "tool.before" (the only event v1 raises)');
  }
  if (event.id !== undefined && (typeof event.id !== 'string' || event.id === '')) {
    throw invalidParams('params.event.id', 'must be a non-empty string');
  }
  const input = {
    call: event.call,
    tool: event.tool,
    ...(event.session === undefined ? {} : { session: event.session }),
    ...(event.id === undefined ? {} : { eventId: event.id }),
  } as unknown as InvokeInput;
  const out: InvokeParams = { input };
  const budgetMs = duration(p, 'budgetMs');
  const cancelAfterMs = duration(p, 'cancelAfterMs');
  if (budgetMs !== undefined) out.budgetMs = budgetMs;
  if (cancelAfterMs !== undefined) out.cancelAfterMs = cancelAfterMs;
  return out;
}

/** Checks `close` params: absent or an object. */
export function parseClose(params: unknown): void {
  if (params !== undefined) object(params, 'params');
}
