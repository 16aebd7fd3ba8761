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
  /**
   * A fresh persistent stdio process's warm-up: how much longer than `--deadline-ms` its first
   * request is waited for (from the write), since an interpreter or a JVM may take seconds before
   * it reads stdin. Also the pre-flight's bound for such a backend, on top of the deadline.
   */
  warmUpMs: 10_000,
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

/**
 * How long the pre-flight waits for its first answer, and where that bound comes from in words:
 * twice the deadline, at least the scaled floor, and for a persistent stdio backend at least the
 * warm-up its cases give a fresh process (so that a start the cases would wait out passes it).
 */
export function preflightBound(
  endpoint: { kind: 'stdio'; lifecycle: 'persistent' | 'per_event' } | { kind: 'http' },
  deadlineMs: number,
  timeoutScale: number,
): { boundMs: number; boundSource: string } {
  const margins = scaledBackendMargins(timeoutScale);
  const warmUp = endpoint.kind === 'stdio' && endpoint.lifecycle === 'persistent';
  const candidates: [number, string][] = [
    [2 * deadlineMs, `twice --deadline-ms ${deadlineMs}`],
    [
      margins.preflightFloorMs,
      `its floor of ${margins.preflightFloorMs} ms at --timeout-scale ${timeoutScale}`,
    ],
    ...(warmUp
      ? ([
          [
            deadlineMs + margins.warmUpMs,
            `--deadline-ms ${deadlineMs} plus the ${margins.warmUpMs} ms a process is given to start, at --timeout-scale ${timeoutScale}`,
          ],
        ] as [number, string][])
      : []),
  ];
  const [boundMs, boundSource] = candidates.reduce((a, b) => (b[0] > a[0] ? b : a));
  return { boundMs, boundSource };
}
