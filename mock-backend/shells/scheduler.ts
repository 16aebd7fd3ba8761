/**
 * Carries out one frame's actions at their offsets from the frame's arrival, on the injected
 * Clock. Shared by every shell so "delay 20 ms" means the same on stdio, HTTP and msw.
 */
import type { Clock } from '../../protocol/clock.js';
import type { Action } from '../model.js';

/** Carries out one action; may return a promise when the action must complete before the next (a flush). */
export type PerformAction = (action: Action) => void | Promise<void>;

/** How a run of actions finished. */
export type RunOutcome =
  /** Every action ran and none was a hang: the exchange is over. */
  | 'done'
  /** Every action ran and one was a hang: the exchange never finishes. */
  | 'hung'
  /** The signal aborted before every action ran (the peer went away, or the shell closed). */
  | 'stopped';

/** Options of one run. */
export interface RunOptions {
  clock: Clock;
  /** The frame's arrival on the clock's monotonic scale; offsets count from here. */
  arrival: number;
  perform: PerformAction;
  /**
   * Told each action's index in the list once it has been carried out, with the instant (on the
   * clock's monotonic scale) the shell began to: for a write, when it handed the bytes over.
   */
  performed?: (index: number, startedAt: number) => void;
  signal?: AbortSignal;
}

/**
 * Runs actions in list order, each no earlier than `arrival + afterMs`. Actions already due run
 * synchronously within the call (no timer, no extra turn), so an immediate reply costs nothing
 * beyond the write itself. Never rejects: a failing `perform` stops the run as `stopped`.
 */
export async function runActions(actions: readonly Action[], options: RunOptions): Promise<RunOutcome> {
  const { clock, arrival, perform, performed, signal } = options;
  let hung = false;
  for (let index = 0; index < actions.length; index++) {
    const action = actions[index] as Action;
    if (signal?.aborted) return 'stopped';
    let now = clock.now();
    const wait = arrival + action.afterMs - now;
    if (wait > 0) {
      try {
        await clock.sleep(wait, signal);
      } catch {
        return 'stopped';
      }
      now = clock.now();
    }
    if (action.type === 'hang') hung = true;
    try {
      const pending = perform(action);
      if (pending) await pending;
    } catch {
      return 'stopped';
    }
    // When it began, not when the call returned: the call's own time (a pipe write that wakes the
    // reader) is the OS's, like the transport's.
    performed?.(index, now);
  }
  return hung ? 'hung' : 'done';
}
