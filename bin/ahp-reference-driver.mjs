#!/usr/bin/env node
// The reference harness's driver (harness driver protocol v1): tsx loads the TypeScript, main() takes the process.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../reference-harness/driver/main.ts');
await main();
