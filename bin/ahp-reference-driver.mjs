#!/usr/bin/env node
// The reference harness's driver (harness driver protocol v1). It runs the esbuild bundle in dist/
// when there is one (a plain Node boot, see cli/bundles.ts) and otherwise loads the TypeScript
// through tsx; either way main() takes the process.
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/reference-driver.mjs', import.meta.url);
let main;
if (existsSync(bundle)) {
  ({ main } = await import(bundle.href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../reference-harness/driver/main.ts'));
}
await main();
