/**
 * The members driver protocol v1.3 adds (docs/driver-protocol.md once it lands): the `outcomes`
 * and `advertise` features, `invoke.params.capabilities`, and the outcome members of an `invoke`
 * result. Declared here, read defensively from what the v1 client already passes through (it
 * keeps unknown members), so that the runner works before and after the shared types grow them;
 * replace these with the shared ones then.
 */
import type { JsonValue } from '../../protocol/json.js';
import { DriverCallError, type InitializeResult, type InvokeResult } from '../driver/index.js';

/** `invoke` result members present whenever the driver announced `features.outcomes`. */
export interface InvokeOutcomes {
  messages?: string[];
  input?: JsonValue;
  result?: JsonValue;
  flow?: 'stop' | 'continue';
  continuationInstructions?: string[];
  continuationRemaining?: number;
  injections?: JsonValue[];
}

export type InvokeResultV13 = InvokeResult & InvokeOutcomes;

/** True when the driver announced the v1.3 feature `name`. */
export function announcesV13(
  info: Pick<InitializeResult, 'features'>,
  name: 'outcomes' | 'advertise',
): boolean {
  return (info.features as Record<string, unknown>)[name] === true;
}

/** The JSON-RPC error code of an `invoke` whose capabilities the driver's harness cannot enforce. */
export const CAPABILITIES_REFUSED_CODE = -32602;

/**
 * Why the call is untested when the driver refused the capabilities it was handed (v1.3: a
 * harness that cannot enforce them says so rather than advertise something else), or undefined
 * for any other error.
 */
export function refusedCapabilities(error: unknown): string | undefined {
  if (!(error instanceof DriverCallError) || error.rpcCode !== CAPABILITIES_REFUSED_CODE) return undefined;
  return `the driver's harness cannot enforce the scenario's capabilities (${error.rpcMessage})`;
}
