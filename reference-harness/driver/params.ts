import {
  checkShape,
  closeParamsSchema,
  configureParamsSchema,
  initializeParamsSchema,
  invokeParamsEnvelopeSchema,
  type ConfigureParams,
  type InitializeParams,
  type InvokeParamsEnvelope,
} from '../../protocol/driver-protocol/index.js';
import type { z } from 'zod';
import type { EventInput, HostPermission, InvokeInput } from '../index.js';
import { invalidParams } from './errors.js';

export type { ConfigureParams, InitializeParams } from '../../protocol/driver-protocol/index.js';

/** `invoke` params, turned into the harness's input. */
export interface InvokeParams {
  input: InvokeInput | EventInput;
  budgetMs?: number;
  cancelAfterMs?: number;
  /** v1.1: the host's own permission before AHP is asked. */
  hostPermission?: HostPermission;
}

/** The params if they match the protocol's schema; else a refusal naming the first bad field. */
function parsed<S extends z.ZodType>(schema: S, params: unknown): z.infer<S> {
  const check = checkShape(schema, params, 'params');
  if (check.ok) return check.value;
  const [first] = check.problems;
  throw invalidParams(first?.field ?? 'params', first?.message ?? 'is malformed');
}

/** Checks `initialize` params. */
export function parseInitialize(params: unknown): InitializeParams {
  return parsed(initializeParamsSchema, params);
}

/** Checks `configure` params; the registration itself is judged by the harness. */
export function parseConfigure(params: unknown): ConfigureParams {
  return parsed(configureParamsSchema, params);
}

/**
 * The harness input for `params.event`: the v1 `tool.before` shape when `type` is absent or
 * `tool.before`, else (v1.1) the event's type and every other field as its payload. Only what the
 * driver must know was checked; the harness's own validation judges the event itself.
 */
function eventInput(event: InvokeParamsEnvelope['event']): InvokeInput | EventInput {
  const { id, type, ...fields } = event as InvokeParamsEnvelope['event'] & Record<string, unknown>;
  if (type === undefined || type === 'tool.before') {
    return {
      call: fields.call,
      tool: fields.tool,
      ...(fields.session === undefined ? {} : { session: fields.session }),
      ...(id === undefined ? {} : { eventId: id }),
    } as unknown as InvokeInput;
  }
  return { type, fields, ...(id === undefined ? {} : { eventId: id }) } as EventInput;
}

/** Checks `invoke` params: the event's shape is left to the harness (see `eventInput`). */
export function parseInvoke(params: unknown): InvokeParams {
  const p = parsed(invokeParamsEnvelopeSchema, params);
  const out: InvokeParams = { input: eventInput(p.event) };
  if (p.hostPermission !== undefined) out.hostPermission = p.hostPermission;
  if (p.budgetMs !== undefined) out.budgetMs = p.budgetMs;
  if (p.cancelAfterMs !== undefined) out.cancelAfterMs = p.cancelAfterMs;
  return out;
}

/** Checks `close` params: absent or an object. */
export function parseClose(params: unknown): void {
  parsed(closeParamsSchema, params);
}
