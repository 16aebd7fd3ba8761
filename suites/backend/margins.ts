import { scaledMargins, type ScaledTable } from '../common/scale.js';

/**
 * Named real-time margins of the backend suites. Real time is unavoidable here (a third-party
 * process or server), and this 2-core VM is noisy: a node child boots in ~150 ms, so each bound
 * is many times that. Every margin is multiplied by `--timeout-scale`; the liveness deadline
 * (`--deadline-ms`) is the vendor's own bound and is not scaled.
 */
export const BACKEND_MARGINS = {
  /** Budget for starting one backend process, on top of the deadline of its first request. */
  spawnMs: 3_000,
  /** How long a persistent stdio backend is watched for output after a notification. */
  silenceWindowMs: 300,
  /** SIGTERM-to-SIGKILL grace when the suites reap the processes they started. */
  killGraceMs: 500,
  /** Slack on top of a case's computed budget before vitest gives up on it. */
  caseSlackMs: 10_000,
  /** The pre-flight waits at least this long (and at least twice the deadline) for a first answer. */
  preflightFloorMs: 5_000,
} as const;

/** Margins after `--timeout-scale`, rounded as every scaled margin is (`scaledMs`). */
export function scaledBackendMargins(scale: number): ScaledTable<typeof BACKEND_MARGINS> {
  return scaledMargins(BACKEND_MARGINS, scale);
}
