import { scaledMargins } from '../../common/scale.js';
import { runTimeoutScale } from '../../common/settings.js';

/**
 * Every real-time margin of the harness suite, in one place. Cases run real processes and
 * sockets on a noisy 2-core machine (a Node child boots in ~100-300 ms, more under load), so
 * margins are generous and every one is multiplied by `--timeout-scale` (waits also by the
 * machine's measured slowness, see `scaledHarnessMargins`). Outcomes are decided from the decision, the
 * audit and the wire, never from tight timings.
 */
export const HARNESS_MARGINS = {
  /**
   * `timeoutMs` of a subscription whose backend answers at once: far above any spawn or
   * round trip, so a loaded machine can never turn an answer into a deadline failure.
   */
  answerDeadlineMs: 10_000,
  /** `timeoutMs` of a case that runs into its deadline, per transport: it is spent in full, so short. */
  shortDeadlineMs: { 'stdio-persistent': 400, 'stdio-per_event': 2500, http: 400 },
  /**
   * Per-event processes boot inside the deadline, and the request must reach the mock before the
   * deadline ends it, hence the larger per_event value above. A late reply comes this long after
   * the deadline would have ended the call, measured from the request's arrival at the mock.
   */
  lateByMs: 300,
  /**
   * A `late: 'just'` reply leaves this long after the deadline (from the request's arrival at the
   * mock, which the harness's own deadline started before): a harness that stretches its deadline
   * a little takes it; one that keeps it never sees it.
   */
  justLateByMs: 60,
  /**
   * An attempt of a just-late case shows that the harness kept its deadline only when the reply
   * left, or the call was answered, within `justLateByMs` plus this of the deadline as counted
   * from the suite's invoke; later (a loaded machine), it shows nothing and the case tries again.
   */
  justLateWindowMs: 60,
  /**
   * How long the suite waits for a delivery the driver's answer implies has happened (stdio mocks
   * record through the control server, after booting). Only a failing case waits this long.
   */
  deliveryWaitMs: 10_000,
  /** Slack on top of a deadline or budget for a call to be answered (driver, spawn and reaping included). */
  settleToleranceMs: 3000,
  /**
   * How long each interceptor of a serial-chain case holds its `[]`: long enough that a harness
   * asking the next one before this reply left shows it by far more than `serialSlackMs`.
   */
  chainReplyDelayMs: 150,
  /**
   * How much earlier than the previous reply's recorded send a request may be recorded and still
   * count as sent after it: arrival and send are read on the wall clock of different processes.
   */
  serialSlackMs: 20,
  /**
   * How much before the driver's answer a stdio mock process may report its start and still count
   * as not up while the call ran (kit/cold-start.ts): the start is stamped on its own wall clock.
   */
  startupSlackMs: 20,
  /**
   * After a call is answered, how long a stdio mock is given to record a frame the harness wrote
   * before answering (the process reads and steps it on its own schedule), before the suite judges
   * that a backend was not asked. HTTP mocks record in the suite's process and need no wait.
   */
  strayFrameWaitMs: 150,
  /**
   * How soon after a per_event backend read its one message its stdin must reach EOF: a harness
   * writes the line and closes stdin together, so anything near this is a harness that waits for
   * something first (a reply, the exit, its deadline). Far below `answerDeadlineMs`, so a harness
   * that closes stdin only when it kills the process at its deadline shows as late.
   */
  eofAfterMessageMs: 2000,
  /** When a chain case cancels its call: after the first interceptor answered, while the second waits. */
  chainCancelAfterMs: 150,
} as const;

/** The harness transport a case runs over. */
export type HarnessTransport = 'stdio-persistent' | 'stdio-per_event' | 'http';

/** Every transport, in the order case matrices use. */
export const HARNESS_TRANSPORTS: readonly HarnessTransport[] = [
  'stdio-persistent',
  'stdio-per_event',
  'http',
];

/** Margins multiplied by the run's timeout scale (integers, as `timeoutMs` must be). */
export interface ScaledHarnessMargins {
  answerDeadlineMs: number;
  shortDeadlineMs(transport: HarnessTransport): number;
  lateByMs: number;
  justLateByMs: number;
  justLateWindowMs: number;
  deliveryWaitMs: number;
  settleToleranceMs: number;
  chainReplyDelayMs: number;
  serialSlackMs: number;
  startupSlackMs: number;
  strayFrameWaitMs: number;
  eofAfterMessageMs: number;
  chainCancelAfterMs: number;
}

/**
 * Scales the margins: waits and tolerances by `scale` (the run's timeout scale, which the CLI
 * raises on a busy machine), the two just-late margins by `precisionScale` (`--timeout-scale`
 * alone): they are how small a stretch of a deadline the suite catches, and a busy machine must
 * not make it miss one (a busy machine's blur makes a just-late attempt inconclusive instead, and
 * the case tries again).
 */
export function scaledHarnessMargins(
  scale: number = runTimeoutScale(),
  precisionScale: number = scale,
): ScaledHarnessMargins {
  const { shortDeadlineMs, ...waits } = scaledMargins(HARNESS_MARGINS, scale);
  const precise = scaledMargins(
    { justLateByMs: HARNESS_MARGINS.justLateByMs, justLateWindowMs: HARNESS_MARGINS.justLateWindowMs },
    precisionScale,
  );
  return { ...waits, ...precise, shortDeadlineMs: (transport) => shortDeadlineMs[transport] };
}
