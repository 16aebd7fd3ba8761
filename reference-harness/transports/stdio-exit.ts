import type { TransportReply } from '../transport.js';
import type { BackendProcess } from './child-process.js';
import { describeExit } from './child-process.js';
import { failedReply, type TransportFailureCode } from './failure-codes.js';

/** Characters of stderr quoted in a failure detail. */
const STDERR_IN_DETAIL = 500;

/** The stderr tail as a detail suffix, so a crash report says what the backend printed. */
export function stderrSuffix(proc: BackendProcess): string {
  const tail = proc.stderrTail().trim();
  return tail === '' ? '' : `; stderr: ${JSON.stringify(tail.slice(-STDERR_IN_DETAIL))}`;
}

/** A launch failure (ENOENT, EACCES, bad cwd...) as a `process` failure. */
export function launchFailure(proc: BackendProcess, command: string): TransportReply {
  const exit = proc.exitInfo();
  const why = exit?.kind === 'launch-failed' ? `${exit.errorCode}: ${exit.message}` : 'unknown error';
  return failedReply('stdio.launch-failed', `could not start ${JSON.stringify(command)} (${why})`);
}

/**
 * Classifies the end of a process that owed a reply. An exit we caused reports the reason we
 * ended it (`ourReason`); otherwise the exit itself decides: a signal, a non-zero code, or a
 * clean exit with no reply.
 */
export function exitFailure(
  proc: BackendProcess,
  command: string,
  ourReason: { code: TransportFailureCode; detail: string } | undefined,
  cleanExitCode: TransportFailureCode,
  raw?: Uint8Array,
): TransportReply {
  const exit = proc.exitInfo();
  if (exit?.kind === 'launch-failed') return launchFailure(proc, command);
  const how = describeExit(exit);
  const stderr = stderrSuffix(proc);
  if (ourReason && proc.exitWasOurs())
    return failedReply(ourReason.code, `${ourReason.detail} (${how})${stderr}`, raw);
  if (exit?.signal) return failedReply('stdio.signal', `the backend was ${how}${stderr}`, raw);
  if (exit && exit.code !== 0) return failedReply('stdio.exit-nonzero', `the backend ${how}${stderr}`, raw);
  return failedReply(cleanExitCode, `the backend ${how} without a reply${stderr}`, raw);
}
