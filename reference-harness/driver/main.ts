import { runReferenceDriver } from './driver.js';

/** The reference driver as a program: the only file of the driver that touches the real process. */
export async function main(): Promise<void> {
  const controller = new AbortController();
  // `on`, never `once`, and never removed: execa's exit hook re-raises a signal that finds no
  // other listener, which would kill us before the harness has reaped its backends.
  const stop = (): void => controller.abort();
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  const { stdin, stdout, stderr, env } = process;
  const code = await runReferenceDriver({ stdin, stdout, stderr, env, signal: controller.signal });
  // stdin may still be open after a signal; let the process end once the harness is closed.
  stdin.destroy();
  process.exitCode = code;
}
