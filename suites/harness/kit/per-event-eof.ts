/**
 * Whether each per_event backend process got what the stdio binding owes it: exactly one
 * JSON-RPC message on stdin, followed by EOF (spec/draft/base/transports/stdio.md,
 * "Process-per-event lifecycle"). Judged on what the mock's processes reported (their stdin EOF,
 * on the clock their frames' arrivals use, and the messages read by then; `GET /processes`): EOF
 * must come within `eofAfterMessageMs` of the message. A harness writes the line and closes stdin
 * together; one that closes it only when it kills the process at its deadline, or never, shows
 * here. A process that ended on its own before its EOF was due shows nothing either way. Pure but
 * for the bounded wait at the end.
 */
import type { ProcessInfo } from '../../../mock-backend/index.js';
import type { Finding } from '../../common/finding.js';
import { finding } from './rules.js';
import type { WireFrame } from './wire-records.js';

/** What one process's stdin shows for the message it read. */
export type EofReading =
  | { verdict: 'ok' }
  | { verdict: 'broken'; finding: Finding }
  /** The process ended on its own, or vanished, before EOF was due: no evidence. */
  | { verdict: 'no-evidence'; why: string }
  /** EOF may still come: the bound from the message's arrival has not passed. */
  | { verdict: 'pending' };

/** The bounds of the judgement. */
export interface EofBounds {
  /** How soon after the message's arrival its EOF must come. */
  eofAfterMessageMs: number;
  /** How long a report of the process may take to reach the control server. */
  reportSlackMs: number;
}

const ms = (n: number) => `${Math.round(n)} ms`;

/** Reads the process that received `frame`, as listed at wall time `nowWallMs`. */
export function readEof(
  frame: WireFrame,
  processes: readonly ProcessInfo[],
  bounds: EofBounds,
  nowWallMs: number,
): EofReading {
  const pid = Number(frame.connectionId);
  const process = processes.find((p) => p.pid === pid);
  const what = `the per_event process ${pid} that read ${frame.method ?? 'a frame'} (frame ${frame.delivery})`;
  if (!process) return { verdict: 'no-evidence', why: `${what} is not in the mock's process list` };
  const end = process.stdinEnd;
  if (end) {
    const gap = end.at.monotonic - frame.atMs;
    if (gap > bounds.eofAfterMessageMs) {
      return {
        verdict: 'broken',
        finding: finding(
          'stdio.per-event-eof',
          `${what} reached stdin EOF only ${ms(gap)} after that message (within ${ms(bounds.eofAfterMessageMs)} expected): the harness closed stdin late, as when it ends the process`,
          { way: 'closed-late' },
        ),
      };
    }
    if (end.messages !== 1) {
      return {
        verdict: 'broken',
        finding: finding(
          'stdio.per-event-eof',
          `${what} read ${end.messages} messages before EOF; exactly one is sent to a per_event backend`,
          { way: 'message-count' },
        ),
      };
    }
    return { verdict: 'ok' };
  }
  const due = frame.atWallMs + bounds.eofAfterMessageMs + bounds.reportSlackMs;
  if (process.exit) {
    return process.exit.at <= due
      ? { verdict: 'no-evidence', why: `${what} ended on its own before its EOF was due` }
      : {
          verdict: 'broken',
          finding: finding(
            'stdio.per-event-eof',
            `${what} ended ${ms(process.exit.at - frame.atWallMs)} after that message without its stdin ever reaching EOF`,
            { way: 'never-closed' },
          ),
        };
  }
  if (!process.alive) return { verdict: 'no-evidence', why: `${what} was killed without a report` };
  if (nowWallMs < due) return { verdict: 'pending' };
  return {
    verdict: 'broken',
    finding: finding(
      'stdio.per-event-eof',
      `${what} still has its stdin open ${ms(nowWallMs - frame.atWallMs)} after that message: the harness never sent EOF`,
      { way: 'never-closed' },
    ),
  };
}

/** The readings of every frame, waiting (bounded by the frames' own due times) while any is pending. */
export async function awaitEofReadings(
  frames: readonly WireFrame[],
  processes: () => readonly ProcessInfo[],
  bounds: EofBounds,
  pollMs = 25,
): Promise<EofReading[]> {
  for (;;) {
    const now = Date.now();
    const readings = frames.map((f) => readEof(f, processes(), bounds, now));
    if (!readings.some((r) => r.verdict === 'pending')) return readings;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** The first broken reading's finding, if any. */
export function eofFinding(readings: readonly EofReading[]): Finding | undefined {
  for (const r of readings) if (r.verdict === 'broken') return r.finding;
  return undefined;
}
