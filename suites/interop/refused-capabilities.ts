/**
 * A driver that announced `features.advertise` answers an `invoke` whose capabilities its harness
 * cannot enforce with a JSON-RPC error (docs/driver-protocol.md, v1.3), never by advertising
 * something else: the scenario is then untested, not failed.
 */
import { DriverCallError } from '../driver/index.js';

/** The JSON-RPC error code of an `invoke` whose capabilities the driver's harness cannot enforce. */
export const CAPABILITIES_REFUSED_CODE = -32602;

/**
 * Why the call is untested when the driver refused the capabilities it was handed, or undefined
 * for any other error.
 */
export function refusedCapabilities(error: unknown): string | undefined {
  if (!(error instanceof DriverCallError) || error.rpcCode !== CAPABILITIES_REFUSED_CODE) return undefined;
  return `the driver's harness cannot enforce the scenario's capabilities (${error.rpcMessage})`;
}
