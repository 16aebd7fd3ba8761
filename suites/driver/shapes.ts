import type { FailureClass, FailurePolicy } from '../../protocol/failure-classes.js';
import type { JsonObject, JsonValue } from '../../protocol/json.js';

/** The driver protocol methods, in the order a connection uses them. */
export const DRIVER_METHODS = ['initialize', 'configure', 'invoke', 'close'] as const;
export type DriverMethod = (typeof DRIVER_METHODS)[number];

/** Audit outcomes a driver may report (DESIGN.md, driver protocol v1). */
export const AUDIT_OUTCOMES = [
  'no-effect',
  'deny',
  'effects',
  'operational-failure',
  'skipped',
  'interrupted',
  'budget-expired',
] as const;
export type DriverAuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** How an interrupted call ended, when the driver reports it. */
export const CALL_ENDINGS = ['cancelled', 'budget-expired', 'closed'] as const;
export type DriverCallEnding = (typeof CALL_ENDINGS)[number];

/** The transport bindings a harness can declare. */
export const DRIVER_BINDINGS = ['stdio', 'http'] as const;
export type DriverBinding = (typeof DRIVER_BINDINGS)[number];

/**
 * Feature flags with a meaning in v1 (docs/driver-protocol.md). A flag that is absent counts as
 * false; unknown keys are allowed so drivers can announce more without breaking older suites.
 */
export const KNOWN_FEATURES = [
  'retries',
  'budget',
  'cancel',
  'close',
  'observe',
  'tokenEnv',
  'tokenProvider',
  'stdioPersistent',
  'stdioPerEvent',
  'http',
  // v1.1: `invoke` results carry `executed`; `invoke` accepts `hostPermission`, results carry `permission`.
  'execution',
  'hostPermission',
] as const;
export type KnownFeature = (typeof KNOWN_FEATURES)[number];

/** `initialize` params: what the suite speaks. */
export interface InitializeParams {
  protocolVersion: string;
  suiteVersion: string;
}

/** `initialize` result: who the driver is and what its harness can do. */
export interface InitializeResult {
  implementation: { name: string; version: string };
  protocolVersions: string[];
  bindings: DriverBinding[];
  features: Partial<Record<KnownFeature, boolean>> & {
    /** v1.1: the interceptable event types `invoke` can raise (absent: only `tool.before`). */
    events?: string[];
  } & { [key: string]: JsonValue | undefined };
}

/** The host's own permission for an operation before AHP is asked (v1.1). */
export const HOST_PERMISSIONS = ['allow', 'ask', 'deny'] as const;
export type HostPermission = (typeof HOST_PERMISSIONS)[number];

/** The event types the driver can raise: what it announced, and always `tool.before`. */
export function announcedEvents(info: Pick<InitializeResult, 'features'>): string[] {
  const listed = info.features.events ?? [];
  return ['tool.before', ...listed.filter((e) => e !== 'tool.before')];
}

/** `configure` params: a registration whose backends are the mock, and an optional retry count. */
export interface ConfigureParams {
  /** Any JSON value: refusing an invalid document is part of what the suite checks. */
  registration: unknown;
  retries?: number;
}

/** One reason a registration was refused. */
export interface ConfigureIssue {
  path: string;
  message: string;
}

/** `configure` result. */
export type ConfigureResult = { accepted: true } | { accepted: false; issues: ConfigureIssue[] };

/** The `tool.before` the harness should raise; the harness fills in the envelope. */
export interface DriverToolEvent {
  /** A suggested event id; drivers may ignore it. */
  id?: string;
  session?: JsonObject & { id: string };
  call: { id: string };
  tool: { name: string; input: JsonObject; kind?: string };
}

/**
 * Any other interceptable event the harness should raise (v1.1, only types the driver announced in
 * `features.events`): its type, optional suggested identities and every payload field of the
 * draft's schema for that event; the harness fills in `source` and `time`.
 */
export interface DriverTypedEvent {
  type: string;
  id?: string;
  session?: JsonObject & { id: string };
  [field: string]: JsonValue | undefined;
}

/** `invoke` params. */
export interface InvokeParams {
  /** A `tool.before` (v1 shape, `type` absent or `"tool.before"`) or any announced event type. */
  event: (DriverToolEvent & { type?: 'tool.before' }) | DriverTypedEvent;
  /** v1.1, only with `features.hostPermission`: the host's permission before AHP (default allow). */
  hostPermission?: HostPermission;
  /** The enclosing call budget in milliseconds. */
  budgetMs?: number;
  /** Cancel the call this many milliseconds after it starts. */
  cancelAfterMs?: number;
}

/** One audit entry of an `invoke` result; optional fields are left out by drivers that cannot tell. */
export interface DriverAuditEntry {
  backendId: string;
  outcome: DriverAuditOutcome;
  failureClass?: FailureClass;
  policy?: FailurePolicy;
  synthetic?: boolean;
  /** Extensions the reference driver reports. */
  mode?: 'intercept' | 'observe';
  subscriptionIndex?: number;
  boundaryCopy?: boolean;
  failureCode?: string;
  attempts?: number;
  durationMs?: number;
}

/** `invoke` result: the settled decision and what each subscription did. */
export interface InvokeResult {
  decision: 'continue' | 'deny';
  reason?: string;
  synthetic: boolean;
  interrupted: boolean;
  audit: DriverAuditEntry[];
  /** Extensions: how an interrupted call ended, and the id of the event the harness raised. */
  ending?: DriverCallEnding;
  eventId?: string;
  /** v1.1, with `features.execution`: whether the host carried out the gated operation. */
  executed?: boolean;
  /** v1.1, with `features.hostPermission`: the host's permission after AHP effects. */
  permission?: HostPermission;
  /** v1.1: the type of the event the harness raised. */
  eventType?: string;
}
