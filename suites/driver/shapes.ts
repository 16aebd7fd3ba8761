// The driver protocol's names and types, as the suite uses them; they are derived from the one
// schema in protocol/driver-protocol.
import type { InitializeResult } from '../../protocol/driver-protocol/index.js';

export {
  AUDIT_OUTCOMES,
  CALL_ENDINGS,
  DRIVER_BINDINGS,
  DRIVER_METHODS,
  HOST_PERMISSIONS,
  KNOWN_FEATURES,
  type ConfigureIssue,
  type ConfigureParams,
  type ConfigureResult,
  type DriverAuditEntry,
  type DriverAuditOutcome,
  type DriverBinding,
  type DriverCallEnding,
  type DriverFeatures,
  type DriverMethod,
  type DriverToolEvent,
  type DriverTypedEvent,
  type HostPermission,
  type InitializeParams,
  type InitializeResult,
  type InvokeParams,
  type InvokeResult,
  type KnownFeature,
} from '../../protocol/driver-protocol/index.js';

/** The event types the driver can raise: what it announced, and always `tool.before`. */
export function announcedEvents(info: Pick<InitializeResult, 'features'>): string[] {
  const listed = info.features.events ?? [];
  return ['tool.before', ...listed.filter((e) => e !== 'tool.before')];
}
