// Preloaded (NODE_OPTIONS=--import) into every Node process of a mutation dry run. The code under
// mutation runs in the suite's child processes (the harness driver, the backend under test), where
// the test runner cannot read Stryker's coverage counters; this writes them to a file of the
// process's own in AHP_MUTATION_COVERAGE_DIR, so the runner can add up which mutants a selection
// of cases reached. Processes that loaded no mutated code write nothing.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.AHP_MUTATION_COVERAGE_DIR;

function flush() {
  const coverage = globalThis.__stryker__?.mutantCoverage;
  if (dir === undefined || coverage === undefined) return;
  const hits = { ...coverage.static };
  for (const perTest of Object.values(coverage.perTest ?? {})) Object.assign(hits, perTest);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify(Object.keys(hits)));
  } catch {
    // The dry run is ending and took the folder with it: nothing left to record into.
  }
}

/**
 * Writes before a signal takes the process. When this is the only listener, the process ends by the
 * signal as it would have without the hook (a listener of any kind turns Node's default off).
 */
function flushOn(signal) {
  const listener = () => {
    flush();
    if (process.listenerCount(signal) === 1) {
      process.off(signal, listener);
      process.kill(process.pid, signal);
    }
  };
  process.prependListener(signal, listener);
}

if (dir !== undefined) {
  process.on('exit', flush);
  flushOn('SIGTERM');
  flushOn('SIGINT');
  // A SIGKILL leaves no moment to write: keep the file at most this far behind.
  setInterval(flush, 250).unref();
}
