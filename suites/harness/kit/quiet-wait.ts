/**
 * A wait for deliveries that may never come: it ends once they arrived, once its window is over,
 * or once the wire has been quiet for a while (no new recording, no mock process alive), since
 * then no straggler can still deliver.
 */

/** What the wait looks at. */
export interface QuietWatch {
  /** True once what is awaited has arrived. */
  arrived(): boolean;
  /** How many entries the mock recorded so far: a change is activity. */
  recorded(): number;
  /** True while a mock process that could still deliver is alive. */
  running(): boolean;
}

/** How often the wait looks at the mock again. */
const QUIET_POLL_MS = 50;

/** Polls `watch` until it arrived, `timeoutMs` passed, or nothing happened for `quietMs`. */
export async function waitUntilArrivedOrQuiet(
  watch: QuietWatch,
  timeoutMs: number,
  quietMs: number,
): Promise<void> {
  const started = performance.now();
  let lastActivity = started;
  let recorded = watch.recorded();
  while (!watch.arrived() && performance.now() - started < timeoutMs) {
    const now = performance.now();
    const seen = watch.recorded();
    if (seen !== recorded || watch.running()) {
      recorded = seen;
      lastActivity = now;
    } else if (now - lastActivity >= quietMs) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, QUIET_POLL_MS));
  }
}
