import { RULES } from './rules.js';
import { step, type Probe, type ProbeStep } from './probe.js';

const ALLOW = { send: 'intercept', input: 'allow' } as const;

/** Requests in a liveness run: enough to outlast a backend that degrades after a few replies. */
export const LIVENESS_RUN = { persistent: 10, perEvent: 3, http: 10 } as const;

function run(count: number): ProbeStep[] {
  return [...Array.from({ length: count }, () => step.subject(ALLOW)), step.denySubject()];
}

/**
 * Liveness (AHP-RPC-002: a request gets its reply): every request of a sequential run is answered
 * within the deadline (`--deadline-ms`), and a persistent stdio backend serves the whole run from
 * one process, after the request that warms it up.
 */
export const LIVENESS_PROBES: readonly Probe[] = [
  {
    requirement: 'AHP-RPC-002',
    rule: RULES.requestAnswered,
    name: `liveness/${LIVENESS_RUN.persistent}-sequential-requests-on-one-process-within-the-deadline`,
    bindings: ['stdio-persistent'],
    // The first request to a fresh process is its warm-up (frame-run.ts), so one more is sent:
    // the run's count is what the deadline holds.
    steps: [step.subject(ALLOW), ...run(LIVENESS_RUN.persistent)],
    sameProcess: true,
  },
  {
    requirement: 'AHP-RPC-002',
    rule: RULES.requestAnswered,
    name: `liveness/${LIVENESS_RUN.perEvent}-sequential-requests-within-the-deadline`,
    bindings: ['stdio-per_event'],
    steps: run(LIVENESS_RUN.perEvent),
  },
  {
    requirement: 'AHP-RPC-002',
    rule: RULES.requestAnswered,
    name: `liveness/${LIVENESS_RUN.http}-sequential-requests-within-the-deadline`,
    bindings: ['http'],
    steps: run(LIVENESS_RUN.http),
  },
];
