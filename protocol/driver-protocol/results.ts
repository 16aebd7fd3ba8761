// What a driver answers to each method (docs/driver-protocol.md, Methods and Audit entries).
import { z } from 'zod';
import { FAILURE_CLASSES } from '../failure-classes.js';
import type { JsonValue } from '../json.js';
import {
  amount,
  count,
  flag,
  list,
  nonEmptyText,
  notEmpty,
  oneOf,
  openRecord,
  record,
  text,
} from './fields.js';
import {
  AUDIT_OUTCOMES,
  CALL_ENDINGS,
  DELIVERY_MODES,
  DRIVER_BINDINGS,
  FAILURE_POLICIES,
  FLOW_OUTCOMES,
  HOST_PERMISSIONS,
  KNOWN_FEATURES,
  type KnownFeature,
} from './vocabulary.js';

const knownFlags = Object.fromEntries(KNOWN_FEATURES.map((key) => [key, flag().exactOptional()])) as Record<
  KnownFeature,
  z.ZodExactOptional<z.ZodBoolean>
>;

/** `initialize.result.features`: booleans, and (v1.1) the event types `invoke` can raise. */
export const featuresSchema = openRecord({
  ...knownFlags,
  /** v1.1: the interceptable event types `invoke` can raise (absent: only `tool.before`). */
  events: list(nonEmptyText('must be a non-empty string')).exactOptional(),
});

/** `initialize` result: who the driver is and what its harness can do. */
export const initializeResultSchema = record({
  implementation: record({ name: nonEmptyText(), version: text() }),
  protocolVersions: list(text())
    .refine(...notEmpty('must list at least one version'))
    .meta({ minItems: 1 }),
  bindings: list(oneOf(DRIVER_BINDINGS, 'must be "stdio" or "http"')),
  features: featuresSchema,
});

/** One reason a registration was refused. */
export const configureIssueSchema = record({ path: text(), message: nonEmptyText() });
export type ConfigureIssue = z.infer<typeof configureIssueSchema>;

const configureShape = record({ accepted: flag(), issues: list(configureIssueSchema).exactOptional() });
type ConfigureShape = z.infer<typeof configureShape>;

/** A refusal names why; the predicate gives the result type its two forms. */
const refusalExplained = (
  result: ConfigureShape,
): result is ConfigureShape & ({ accepted: true } | { accepted: false; issues: ConfigureIssue[] }) =>
  result.accepted || (result.issues?.length ?? 0) > 0;

/** `configure` result: accepted, or refused with at least one issue. */
export const configureResultSchema = configureShape
  .refine(refusalExplained, {
    path: ['issues'],
    error: (issue) =>
      (issue.input as ConfigureShape).issues === undefined
        ? 'is missing'
        : 'must name at least one issue when the registration is refused',
  })
  .meta({
    if: { properties: { accepted: { type: 'boolean', const: false } } },
    then: { required: ['issues'], properties: { issues: { type: 'array', minItems: 1 } } },
  });

/** One audit entry of an `invoke` result; optional fields are left out by drivers that cannot tell. */
export const auditEntrySchema = record({
  backendId: nonEmptyText(),
  outcome: oneOf(AUDIT_OUTCOMES),
  failureClass: oneOf(FAILURE_CLASSES).exactOptional(),
  policy: oneOf(FAILURE_POLICIES).exactOptional(),
  synthetic: flag().exactOptional(),
  // Extensions the reference driver reports.
  mode: oneOf(DELIVERY_MODES).exactOptional(),
  subscriptionIndex: count().exactOptional(),
  boundaryCopy: flag().exactOptional(),
  failureCode: nonEmptyText().exactOptional(),
  attempts: count().exactOptional(),
  durationMs: amount().exactOptional(),
});

/** Any JSON value, `null` included (a supplied result may be any of them). */
const anyJson = z.custom<JsonValue>((value) => value !== undefined, 'is missing');

/** One upload a receipt confirmed (v1.2, with `features.uploads`): whose, of which part, its ref. */
export const confirmedUploadSchema = record({
  backendId: nonEmptyText(),
  subscriptionIndex: count().exactOptional(),
  partId: nonEmptyText(),
  ref: nonEmptyText(),
});

/** `invoke` result: the settled decision and what each subscription did. */
export const invokeResultSchema = record({
  decision: oneOf(['continue', 'deny']),
  reason: text().exactOptional(),
  synthetic: flag(),
  interrupted: flag(),
  /** Extensions: how an interrupted call ended, and the id of the event the harness raised. */
  ending: oneOf(CALL_ENDINGS).exactOptional(),
  eventId: nonEmptyText().exactOptional(),
  /** v1.1, with `features.execution`: whether the host carried out the gated operation. */
  executed: flag().exactOptional(),
  /** v1.1, with `features.hostPermission`: the host's permission after AHP effects. */
  permission: oneOf(HOST_PERMISSIONS).exactOptional(),
  /** v1.1: the type of the event the harness raised. */
  eventType: nonEmptyText().exactOptional(),
  /** v1.2, with `features.uploads`: every upload of the call a receipt confirmed. */
  uploads: list(confirmedUploadSchema).exactOptional(),
  /** v1.3, with `features.outcomes`: accepted `message` texts of the call, in order. */
  messages: list(text()).exactOptional(),
  /** v1.3: the final effective tool input (tool.before calls only). */
  input: openRecord({}).exactOptional(),
  /** v1.3: the supplied result in force when the call settled (present only then; may be null). */
  result: anyJson.exactOptional(),
  /** v1.3: the accepted flow outcome; absent when no flow effect was accepted. A stop is not a deny. */
  flow: oneOf(FLOW_OUTCOMES).exactOptional(),
  /** v1.3: accepted continue instructions in order (when the call's capabilities offer continue). */
  continuationInstructions: list(text()).exactOptional(),
  /** v1.3: the continuation allowance left after the call (same condition). */
  continuationRemaining: count().exactOptional(),
  /** v1.3: accepted `inject` effects in order, each as received (when the capabilities offer inject). */
  injections: list(openRecord({})).exactOptional(),
  audit: list(auditEntrySchema),
});

/** `close` result: an object (v1 defines no members). */
export const closeResultSchema = record({});

export type DriverFeatures = z.infer<typeof featuresSchema>;
export type InitializeResult = z.infer<typeof initializeResultSchema>;
export type ConfigureResult = z.infer<typeof configureResultSchema>;
export type DriverAuditEntry = z.infer<typeof auditEntrySchema>;
export type InvokeResult = z.infer<typeof invokeResultSchema>;
export type DriverConfirmedUpload = z.infer<typeof confirmedUploadSchema>;
export type CloseResult = z.infer<typeof closeResultSchema>;
