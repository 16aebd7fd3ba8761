// Busy loops that load the cores while a stability script runs, so that timing verdicts are
// tried on a machine as loaded as a shared CI runner.
import { spawn, type ChildProcess } from 'node:child_process';

/**
 * One busy loop: spins, and every few million turns checks that the script that started it is
 * still its parent, so a loop never outlives a script stopped before it could kill its loops.
 * The parent is read afresh from /proc (Node caches `process.ppid`, and a parent left a zombie
 * still answers `kill(pid, 0)`); where there is no /proc, `kill(pid, 0)` is the check.
 */
const LOOP = [
  "const fs = require('node:fs');",
  'const parent = process.ppid;',
  'const orphaned = () => {',
  "  try { const stat = fs.readFileSync('/proc/self/stat', 'utf8');",
  "    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== parent; }",
  '  catch { try { process.kill(parent, 0); return false; } catch { return true; } }',
  '};',
  'for (let i = 1; ; i++) if (i % 5e6 === 0 && orphaned()) process.exit(0);',
].join('\n');

/** Starts `count` processes that each spin on a core; stop them with the returned function. */
export function startBusyLoops(count: number): () => void {
  const loops: ChildProcess[] = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', LOOP], { stdio: 'ignore' }),
  );
  return () => {
    for (const loop of loops) loop.kill('SIGKILL');
  };
}
