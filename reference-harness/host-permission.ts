import type { HostPermission } from '../protocol/driver-protocol/index.js';
import type { Permission } from './staging.js';

// The host's permission before AHP is asked and after its effects is the driver protocol's (v1.1).
export { HOST_PERMISSIONS, type HostPermission } from '../protocol/driver-protocol/index.js';

/**
 * The permission an operation ends with: the stricter of the host's and what AHP settled
 * (deny > ask > allow). AHP can only tighten it (AHP-DEC-003, AHP-SEC-001): a denied or
 * interrupted call is `deny`, an accepted `ask` turns allow into ask, and neither an empty effect
 * list, an `allow` effect nor a fail-open failure lifts a host `deny` or `ask`.
 */
export function settlePermission(
  host: HostPermission,
  decision: 'continue' | 'deny',
  ahp: Permission,
): HostPermission {
  if (host === 'deny' || decision === 'deny') return 'deny';
  if (host === 'ask' || ahp === 'ask') return 'ask';
  return 'allow';
}

/**
 * Whether the host carries the operation out: only a call that settled `continue`, was not
 * interrupted and ended with permission `allow`. An `ask` needs an approval this host (it has no
 * user) never gives, so such an operation is not executed either.
 */
export function isExecuted(
  decision: 'continue' | 'deny',
  interrupted: boolean,
  permission: HostPermission,
): boolean {
  return decision === 'continue' && !interrupted && permission === 'allow';
}
