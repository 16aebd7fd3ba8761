/**
 * The members driver protocol v1.3 adds (docs/driver-protocol.md once it lands): the `outcomes`
 * and `advertise` features, `invoke.params.capabilities`, and the outcome members of an `invoke`
 * result. Declared here, read defensively from what the v1 client already passes through (it
 * keeps unknown members), so that the runner works before and after the shared types grow them;
 * replace these with the shared ones then.
 */
import type { JsonValue } from '../../protocol/json.js';
import type { InitializeResult, InvokeResult } from '../driver/index.js';

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
