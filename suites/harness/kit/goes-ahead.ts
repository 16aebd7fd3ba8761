/**
 * Whether a driver's answer lets the gated operation go ahead. A flow stop is not a deny in the
 * draft (an accepted stop ends decision-making and the pending operation, and only a deny refuses
 * it), and the driver protocol lets a harness report a stop either way: as decision `deny` (v1
 * drivers, which have no other word for it) or as decision `continue` with flow `stop` and
 * executed false (v1.3, features.outcomes). Both say the operation does not go ahead, so a check
 * that a stop held accepts both; a `continue` without such a stop does not. Pure.
 */
import type { InvokeResult } from '../../driver/index.js';

/** True unless the answer is a denial or a v1.3 flow stop that did not execute the operation. */
export function goesAhead(result: InvokeResult): boolean {
  if (result.decision !== 'continue') return false;
  return !(result.flow === 'stop' && result.executed === false);
}
