import { constants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { counted } from './report/count.js';

/** Everything a command may touch of the outside world; the bin passes the real process, tests pass fakes. */
export interface CliIo {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** Aborted on SIGINT/SIGTERM of the CLI process. */
  signal: AbortSignal;
  /** The parent process id when this process started (a mock ends once that parent is gone). */
  parentPid?: number;
  /** Process-level powers for a command that acts as a process of its own (the stdio mock); absent: the real process. */
  processControl?: ProcessControl;
}

/** What a process-like command may do to its own process; tests pass fakes. */
export interface ProcessControl {
  pid: number;
  exit(code: number): void;
  killSelf(signal: NodeJS.Signals): void;
  /** Replaces the default SIGTERM action with `handler`. */
  trapSigterm(handler: () => void): void;
  /** Keeps the process up while it serves and calls `whenOrphaned` once its parent is gone. */
  stayAlive?(whenOrphaned: () => void): void;
}

/** The exit codes (docs/architecture.md "Exit codes"; the README and docs/ci-example.md list them for users). */
export const EXIT = {
  ok: 0,
  conformanceFailure: 1,
  usage: 2,
  targetUnreachable: 3,
} as const;

/** A problem with the user's input: one sentence naming the input and the fix; exit 2, no stack trace. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The target (driver, backend) could not be exercised: exit 3. */
export class TargetError extends Error {
  /** Lines printed after the sentence (the target's stderr tail). */
  readonly details: readonly string[];

  constructor(message: string, details: readonly string[] = []) {
    super(message);
    this.name = 'TargetError';
    this.details = details;
  }
}

/** The lines that show a target's stderr tail under the sentence that says why it stopped. */
export function stderrTailLines(tail: readonly string[]): string[] {
  if (tail.length === 0) return ['(the driver wrote nothing on stderr)'];
  return [`Last ${counted(tail.length, 'line')} the driver wrote on stderr:`, ...tail.map((l) => `  | ${l}`)];
}

export function writeLine(stream: Writable, text: string): void {
  stream.write(`${text}\n`);
}

/** Why `CliIo.signal` was aborted: the signal the process received. */
export class Interrupted extends Error {
  constructor(readonly signalName: NodeJS.Signals) {
    super(`interrupted by ${signalName}`);
    this.name = 'Interrupted';
  }
}

/**
 * The exit code of a run stopped by a signal: 128 + its number, as shells report a process a
 * signal ended (130 for SIGINT, Ctrl-C; 143 for SIGTERM, a CI job cancelled).
 */
export function interruptedExitCode(signal: AbortSignal): number {
  const reason: unknown = signal.reason;
  const name = reason instanceof Interrupted ? reason.signalName : 'SIGINT';
  return 128 + (constants.signals[name] ?? constants.signals.SIGINT);
}

/** A signal came before the run started: nothing ran, so there is no report. */
export function interruptedBeforeRun(io: Pick<CliIo, 'signal' | 'stderr'>): number {
  writeLine(
    io.stderr,
    'ahp-conformance: interrupted before the run started; no case ran, no report written.',
  );
  return interruptedExitCode(io.signal);
}
