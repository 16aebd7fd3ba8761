import {
  attachmentWithBytesSchema,
  BODY_BASE64,
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
import { isJsonObject } from '../../protocol/json.js';
import type { Capabilities } from '../../protocol/wire-types.js';
import { NO_UPLOAD_GAP } from '../content-selection.js';

export type { ConfigureParams, InitializeParams } from '../../protocol/driver-protocol/index.js';

/** `invoke` params, turned into the harness's input. */
export interface InvokeParams {
  input: InvokeInput | EventInput;
  /** v1.2: the bytes handed in for attachment parts (`bodyBase64`), decoded once, by part id. */
  attachments?: Map<string, Uint8Array>;
  budgetMs?: number;
  cancelAfterMs?: number;
  /** v1.1: the host's own permission before AHP is asked. */
  hostPermission?: HostPermission;
  /** v1.3: the call's own advertisement; the harness judges whether it can enforce it. */
  capabilities?: Capabilities;
}

/** The params if they match the protocol's schema; else a refusal naming the first bad field. */
function parsed<S extends z.ZodType>(schema: S, params: unknown, root = 'params'): z.infer<S> {
  const check = checkShape(schema, params, root);
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

/**
 * Takes the bytes out of every handed-in attachment part that carries `bodyBase64` (v1.2), in
 * the event's content slots: each is decoded once, and its part becomes what the host has
 * before any upload, a body view with a gap (no reference yet). `event` is not changed.
 */
function takeAttachmentBytes(event: Record<string, unknown>): {
  event: Record<string, unknown>;
  attachments: Map<string, Uint8Array>;
} {
  const attachments = new Map<string, Uint8Array>();
  const part = (value: unknown, path: string): unknown => {
    if (!isJsonObject(value) || !(BODY_BASE64 in value)) return value;
    const given = parsed(attachmentWithBytesSchema, value, path);
    const { [BODY_BASE64]: encoded, ...rest } = given;
    attachments.set(given.id, new Uint8Array(Buffer.from(encoded, 'base64')));
    return { ...rest, gap: { reason: NO_UPLOAD_GAP } };
  };
  const message = (value: unknown, path: string): unknown =>
    isJsonObject(value) && Array.isArray(value.parts)
      ? { ...value, parts: value.parts.map((p, i) => part(p, `${path}.parts[${i}]`)) }
      : value;
  const out = { ...event };
  const at = 'params.event';
  if (Array.isArray(event.items)) {
    out.items = event.items.map((item: unknown, i) =>
      isJsonObject(item) && ('parts' in item || 'role' in item)
        ? message(item, `${at}.items[${i}]`)
        : part(item, `${at}.items[${i}]`),
    );
  }
  if (Array.isArray(event.summary)) {
    out.summary = event.summary.map((p: unknown, i) => part(p, `${at}.summary[${i}]`));
  } else if (event.summary !== undefined) out.summary = part(event.summary, `${at}.summary`);
  if (isJsonObject(event.message) && Array.isArray(event.message.messages)) {
    out.message = {
      ...event.message,
      messages: event.message.messages.map((m, i) => message(m, `${at}.message.messages[${i}]`)),
    };
  }
  return attachments.size === 0 ? { event, attachments } : { event: out, attachments };
}

/** Checks `invoke` params: the event's shape is left to the harness (see `eventInput`). */
export function parseInvoke(params: unknown): InvokeParams {
  const p = parsed(invokeParamsEnvelopeSchema, params);
  const { event, attachments } = takeAttachmentBytes(p.event as Record<string, unknown>);
  const out: InvokeParams = { input: eventInput(event as InvokeParamsEnvelope['event']) };
  if (attachments.size > 0) out.attachments = attachments;
  if (p.hostPermission !== undefined) out.hostPermission = p.hostPermission;
  if (p.budgetMs !== undefined) out.budgetMs = p.budgetMs;
  if (p.cancelAfterMs !== undefined) out.cancelAfterMs = p.cancelAfterMs;
  if (p.capabilities !== undefined) out.capabilities = p.capabilities as unknown as Capabilities;
  return out;
}

/** Checks `close` params: absent or an object. */
export function parseClose(params: unknown): void {
  parsed(closeParamsSchema, params);
}
