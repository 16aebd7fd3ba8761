#!/usr/bin/env node
// The bin is a few lines: load TypeScript through tsx, then hand the real process to run(io).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
await main();
