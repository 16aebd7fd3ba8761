import { run } from './run.js';

/**
 * The only place that reads the real process: argv, env, signals and the exit code. `parentPid`:
 * the parent as the bin saw it at its first line, before seconds of module loading could pass.
 */
export async function main(start: { parentPid?: number } = {}): Promise<void> {
  const controller = new AbortController();
  const onSignal = (): void => controller.abort(new Error('interrupted by a signal'));
  // `on`, not `once`: with no listener left, a second signal would kill the process before the
  // run's cleanup (execa's exit hook re-raises a signal nobody else listens to).
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const code = await run({
    argv: process.argv.slice(2),
    env: process.env,
    cwd: process.cwd(),
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    signal: controller.signal,
    parentPid: start.parentPid ?? process.ppid,
  });
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  process.exitCode = code;
}
