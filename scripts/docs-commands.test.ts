// Every shell block of the README and docs/ runs as documented (exit code, output); see
// scripts/lib/doc-blocks.ts for the markers. Full suite runs (`slow`) are docs-slow.e2e.ts's.
import { defineDocTests } from './lib/doc-suite.js';

defineDocTests({ slow: false });
