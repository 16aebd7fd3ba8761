// What the suite sends with each method (docs/driver-protocol.md, Methods, v1.1 to v1.3 additions).
import { z } from 'zod';
import { INTERCEPTABLE_EVENTS, isInterceptableEvent } from '../events.js';
import { amount, count, expecting, list, nonEmptyText, oneOf, openRecord, record, text } from './fields.js';
import { HOST_PERMISSIONS } from './vocabulary.js';

/** `initialize` params: what the suite speaks. */
export const initializeParamsSchema = record({ protocolVersion: text(), suiteVersion: text() });

/** `configure` params: a registration whose backends are the mock, and an optional retry count. */
export const configureParamsSchema = record({
  /** Any JSON value: refusing an invalid document is part of what the suite checks. */
  registration: z.unknown().refine((value) => value !== undefined, 'is missing'),
  retries: count(undefined, Number.isSafeInteger).exactOptional(),
});

const INTERCEPTABLE = 'must name one of the interceptable events in features.events';
// Typed as a plain test: the type stays a string, since the suite may send any announced name.
const interceptable = (type: string): boolean => isInterceptableEvent(type);
/** An interceptable event's type, with its closed set in the generated JSON Schema. */
const interceptableType = () =>
  text(INTERCEPTABLE)
    .refine(interceptable, INTERCEPTABLE)
    .meta({ enum: [...INTERCEPTABLE_EVENTS] });

/** A suggested event id; drivers may ignore it. */
const suggestedId = nonEmptyText('must be a non-empty string').exactOptional();

/** The members every raised event may carry: a suggested id and the session it belongs to. */
const eventIdentity = { id: suggestedId, session: openRecord({ id: text() }).exactOptional() };

/** The `tool.before` the harness should raise (v1; `type` absent); the harness fills in the envelope. */
export const driverToolEventSchema = record({
  type: z.literal('tool.before', expecting(INTERCEPTABLE)).exactOptional(),
  ...eventIdentity,
  call: record({ id: text() }),
  tool: record({ name: text(), input: openRecord({}), kind: text().exactOptional() }),
});

/**
 * Any other interceptable event the harness should raise (v1.1, only types the driver announced
 * in `features.events`): its type, optional identities and every payload field of the draft's
 * schema for that event; the harness fills in `source` and `time`.
 */
export const driverTypedEventSchema = openRecord({
  type: interceptableType(),
  ...eventIdentity,
});

const invokeOptions = {
  /** v1.1, only with `features.hostPermission`: the host's permission before AHP (default allow). */
  hostPermission: oneOf(HOST_PERMISSIONS, 'must be "allow", "ask" or "deny"').exactOptional(),
  /** The enclosing call budget in milliseconds. */
  budgetMs: amount('must be a non-negative number of milliseconds').exactOptional(),
  /** Cancel the call this many milliseconds after it starts. */
  cancelAfterMs: amount('must be a non-negative number of milliseconds').exactOptional(),
  /**
   * v1.3, only with `features.advertise`: exactly the `params.capabilities` the harness advertises
   * on every intercept request of this call, and enforces. Its members are the AHP ones; the
   * driver's harness judges them and answers -32602 naming a member it cannot enforce.
   */
  capabilities: openRecord({ effects: list(text()) }).exactOptional(),
};

/** `invoke` params: a `tool.before` (`type` absent or `"tool.before"`) or any announced event type. */
export const invokeParamsSchema = record({
  event: z.union([driverToolEventSchema, driverTypedEventSchema], expecting('must be an object')),
  ...invokeOptions,
});

/**
 * `invoke` params as far as a driver judges them: the event's identity and type, and the call's
 * options. The event's payload is left to the harness, whose own validation judges the event.
 */
export const invokeParamsEnvelopeSchema = record({
  event: record({
    id: suggestedId,
    type: interceptableType().exactOptional(),
  }),
  ...invokeOptions,
});

/**
 * v1.2, only with `features.uploads`: the member of a handed-in attachment part that carries the
 * bytes the host owns for it, base64 (RFC 4648, padded). It is test storage only: the driver
 * decodes it once and hands its harness the bytes, which count, hash and upload those octets.
 * Such a part has no `body`: the host has no reference for it until an upload confirms one.
 */
export const BODY_BASE64 = 'bodyBase64';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A handed-in attachment part with its bytes (v1.2). */
export const attachmentWithBytesSchema = openRecord({
  id: nonEmptyText('must be a non-empty string'),
  kind: z.literal('attachment', expecting('must be "attachment"')),
  [BODY_BASE64]: text('must be a base64 string').refine(
    (value) => BASE64.test(value),
    'must be padded base64 (RFC 4648)',
  ),
});
export type AttachmentWithBytes = z.infer<typeof attachmentWithBytesSchema>;

/** `close` params: absent or an object. */
export const closeParamsSchema = record({}).optional();

/** Every method's params, by name. */
export const paramsSchemas = {
  initialize: initializeParamsSchema,
  configure: configureParamsSchema,
  invoke: invokeParamsSchema,
  close: closeParamsSchema,
} as const;

export type InitializeParams = z.infer<typeof initializeParamsSchema>;
export type ConfigureParams = z.infer<typeof configureParamsSchema>;
export type DriverToolEvent = z.infer<typeof driverToolEventSchema>;
export type DriverTypedEvent = z.infer<typeof driverTypedEventSchema>;
export type InvokeParams = z.infer<typeof invokeParamsSchema>;
export type InvokeParamsEnvelope = z.infer<typeof invokeParamsEnvelopeSchema>;
