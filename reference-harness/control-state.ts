import type { JsonObject } from '../protocol/json.js';
import type { Capabilities } from '../protocol/wire-types.js';
import type { EffectiveState } from './staging.js';

/**
 * The incoming control state (`params.state`) an interceptor is sent: the accepted permission
 * and supplied-result candidate so far, and, where the request offers them, the flow outcome,
 * the continue instructions and the injections. It describes the call, never who answered: the
 * candidate carries its value and no provenance, since subscription identity stays off the wire.
 */
export function controlState(state: EffectiveState, capabilities: Capabilities): JsonObject {
  const out: JsonObject = {
    permission: state.permission,
    candidate: state.candidate === null ? null : { value: state.candidate.value },
  };
  if (capabilities.flow !== undefined) {
    out.flow = state.flow;
    if (capabilities.flow.operations.includes('continue')) out.instructions = [...state.instructions];
  }
  if (capabilities.inject !== undefined) out.injections = [...state.injections];
  return out;
}
