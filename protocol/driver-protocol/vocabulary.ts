// The closed sets of names the driver protocol uses (docs/driver-protocol.md).

/** The driver protocol methods, in the order a connection uses them. */
export const DRIVER_METHODS = ['initialize', 'configure', 'invoke', 'close'] as const;
export type DriverMethod = (typeof DRIVER_METHODS)[number];

/** Audit outcomes a driver may report. */
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
 * Feature flags with a meaning in v1 to v1.3. A flag that is absent counts as false; unknown keys
 * are allowed so drivers can announce more without breaking older suites.
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
  // v1.2: `invoke` hands in attachment bytes (`bodyBase64`); results carry `uploads`.
  'uploads',
  // v1.3: `invoke` results carry the outcome members (messages, input, result, flow, ...);
  // `invoke` accepts `capabilities`, the advertisement the harness uses for that call.
  'outcomes',
  'advertise',
] as const;
export type KnownFeature = (typeof KNOWN_FEATURES)[number];

/**
 * What the host's own permission rules, sandbox or approval policy say about an operation before
 * AHP is asked, and what it ends with after the AHP effects (v1.1).
 */
export const HOST_PERMISSIONS = ['allow', 'ask', 'deny'] as const;
export type HostPermission = (typeof HOST_PERMISSIONS)[number];

/** The accepted flow outcome of a call (v1.3). */
export const FLOW_OUTCOMES = ['stop', 'continue'] as const;
export type FlowOutcome = (typeof FLOW_OUTCOMES)[number];

/** The two kinds of delivery an audit entry can describe. */
export const DELIVERY_MODES = ['intercept', 'observe'] as const;

/** The failure policies, as the wire defines them. */
export { FAILURE_POLICIES } from '../failure-classes.js';
