import type { JsonObject } from '../../protocol/json.js';
import type { InvokeParams } from '../driver/index.js';

/**
 * The event `invoke` raises: a scenario's payload with this lane's unique identities (the `n`-th
 * call of the lane). A `tool.before` gets its call id; any other event is named by its type.
 */
export function scenarioEvent(
  payload: JsonObject,
  prefix: string,
  n: number,
  eventType = 'tool.before',
): InvokeParams['event'] {
  const event: JsonObject = {
    ...structuredClone(payload),
    id: `evt-${prefix}-${n}`,
    session: { id: `sess-${prefix}` },
  };
  if (eventType === 'tool.before') event.call = { id: `call-${prefix}-${n}` };
  else event.type = eventType;
  return event as InvokeParams['event'];
}
