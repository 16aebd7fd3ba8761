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
if (bundleIsFresh(fileURLToPath(new URL('..', import.meta.url)), 'cli.mjs')) {
  ({ main } = await import('../dist/cli.mjs'));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../cli/main.ts'));
}
await main({ parentPid });
