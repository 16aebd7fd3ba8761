#!/usr/bin/env node
// A broken twin of the reference harness's driver (fixtures/harnesses/: one defect each), as a
// driver: `ahp-broken-twin <twin>`. A bin, so that `npx ahp-broken-twin <twin>` finds the same
// twin in a project that installed the package and in a clone of it.
import { register } from 'tsx/esm/api';

register();
await import('../fixtures/harnesses/lib/entry.ts');
