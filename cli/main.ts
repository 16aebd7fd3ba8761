import { abandonedFileSystemSteps } from './file-system-bound.js';
import { EXIT, Interrupted, interruptedExitCode } from './io.js';
import { run } from './run.js';

/**
 * The only place that reads the real process: argv, env, signals and the exit code. `parentPid`:
 * the parent as the bin saw it at its first line, before seconds of module loading could pass.
 */
export async function main(start: { parentPid?: number } = {}): Promise<void> {
  const controller = new AbortController();
  // The first signal stops the run: it reaps its children and writes the partial report. A second
  // one is someone who will not wait for that: the process ends at once.
  const onSignal = (signal: NodeJS.Signals): void => {
    if (!controller.signal.aborted) {
      controller.abort(new Interrupted(signal));
      return;
    }
    process.stderr.write('ahp-conformance: stopped at once (second signal); no report written.\n');
    process.exit(interruptedExitCode(controller.signal));
  };
  // `on`, not `once`: with no listener left, a second signal would kill the process before the
  // run's cleanup (execa's exit hook re-raises a signal nobody else listens to).
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let code: number;
  try {
    code = await run({
      argv: process.argv.slice(2),
      env: process.env,
      cwd: process.cwd(),
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      signal: controller.signal,
      parentPid: start.parentPid ?? process.ppid,
    });
  } catch (error) {
    code = internalError(error, process.env.AHP_CONFORMANCE_DEBUG !== undefined);
  }
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  process.exitCode = code;
  // A file-system call given up on (cli/file-system-bound.ts) would keep the process up for good.
  if (abandonedFileSystemSteps() > 0) process.exit(code);
}

/**
 * A failure of the tool itself (a bug, vitest failing to start): one sentence and exit 3, never
 * 1, which CI reads as conformance failures; the stack trace only on request.
 */
export function internalError(error: unknown, debug: boolean): number {
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  process.stderr.write(
    `ahp-conformance: the run could not be completed (${message}); this is a fault of ahp-conformance, not of the target: rerun with AHP_CONFORMANCE_DEBUG=1 for the stack trace and report it.\n`,
  );
  if (debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  return EXIT.targetUnreachable;
}
