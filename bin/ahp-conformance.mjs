#!/usr/bin/env node
// The bin is a few lines: run the CLI's esbuild bundle in dist/ when it matches the sources (a
// plain Node start; loading the CLI's module graph through tsx cost seconds of CPU per command),
// otherwise load the TypeScript through tsx; either way main() takes the process. A stale bundle
// is rebuilt by `npm run build`, before tests and by `harness` (cli/bundles.ts).
import { fileURLToPath } from 'node:url';
import { bundleIsFresh } from './bundle-freshness.mjs';

// Read before loading anything: a mock-backend ends once this parent is gone.
const parentPid = process.ppid;

let main;
try {
  if (bundleIsFresh(fileURLToPath(new URL('..', import.meta.url)), 'cli.mjs')) {
    ({ main } = await import('../dist/cli.mjs'));
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    ({ main } = await import('../cli/main.ts'));
  }
} catch (error) {
  // An install that is incomplete (a dependency missing, a file not copied): exit code 3, never
  // 1, which means conformance failures.
  const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
  process.stderr.write(
    `ahp-conformance: could not start (${why}); reinstall it (npm ci, or npm install ahp-conformance).\n`,
  );
  process.exit(3);
}
await main({ parentPid });
