// Busy loops that load the cores while a stability script runs, so that timing verdicts are
// tried on a machine as loaded as a shared CI runner.
import { spawn, type ChildProcess } from 'node:child_process';

/** Starts `count` processes that each spin on a core; stop them with the returned function. */
export function startBusyLoops(count: number): () => void {
  const loops: ChildProcess[] = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
  return () => {
    for (const loop of loops) loop.kill('SIGKILL');
  };
}
