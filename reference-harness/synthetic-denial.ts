import type { Ending } from './interruption.js';

/**
 * The reason shown to the model for a fail-closed denial. It is a constant on purpose: nothing
 * from the backend, the network, credentials or a stack can reach the model through it.
 */
export const SYNTHETIC_DENIAL_REASON = 'Required policy backend unavailable.';

const ENDING_REASONS: Readonly<Record<Ending, string>> = {
  cancelled: 'Hook call cancelled before policy evaluation completed.',
  'budget-expired': 'Hook call time budget expired before policy evaluation completed.',
  closed: 'Hook runner shut down before policy evaluation completed.',
};

/** The local reason for a call denied because it was interrupted (never permission to run). */
export function interruptedReason(ending: Ending): string {
  return ENDING_REASONS[ending];
}
