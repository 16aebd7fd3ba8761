/**
 * The stdio mock processes of a run: each registers when it starts and when it ends. A process
 * killed by SIGKILL cannot say so; `alive` (checked when listed) tells that case apart.
 */
import type { Instant, KillSignal } from '../model.js';
import { processAlive } from '../../protocol/process-alive.js';

/** One stdio mock process as the control server knows it. */
export interface ProcessInfo {
  pid: number;
  /** Wall-clock ms of the start registration. */
  startedAt: number;
  /**
   * Set once the process's stdin reached EOF: when (on the process's own clocks, comparable with
   * the arrival of its frames) and how many messages (lines) it had read by then. Absent while
   * stdin is open: a per_event process whose harness never closes it never gets one.
   */
  stdinEnd?: { at: Instant; messages: number };
  /** Set once the process reported its end (code, or the signal it died by). */
  exit?: { code: number | null; signal: KillSignal | null; at: number };
  /** Whether a process with this PID exists now (an exited process that is not yet reaped still does). */
  alive: boolean;
}

/** Tells whether a PID exists; the default asks the OS with signal 0. */
export type AliveCheck = (pid: number) => boolean;

/** The process list of one run. */
export class ProcessRegistry {
  private entries = new Map<number, Omit<ProcessInfo, 'alive'>>();

  constructor(private readonly isAlive: AliveCheck = processAlive) {}

  /** A process started (a PID reused after a reset starts a fresh entry). */
  started(pid: number, at: number): void {
    this.entries.set(pid, { pid, startedAt: at });
  }

  /** A process reported its end; unknown PIDs (e.g. from before a reset) are ignored. */
  exited(pid: number, exit: { code: number | null; signal: KillSignal | null }, at: number): void {
    const entry = this.entries.get(pid);
    if (entry && !entry.exit) entry.exit = { ...exit, at };
  }

  /** A process's stdin reached EOF; unknown PIDs are ignored, and only the first EOF counts. */
  stdinEnded(pid: number, end: { at: Instant; messages: number }): void {
    const entry = this.entries.get(pid);
    if (entry && !entry.stdinEnd) entry.stdinEnd = { at: { ...end.at }, messages: end.messages };
  }

  /** Every process, in start order. */
  list(): ProcessInfo[] {
    return [...this.entries.values()].map((e) => ({ ...e, alive: this.isAlive(e.pid) }));
  }

  /** The PIDs, in start order. */
  pids(): number[] {
    return [...this.entries.keys()];
  }

  reset(): void {
    this.entries.clear();
  }
}
