// The public surface of the suites' shared kit, for the CLI: case metadata, findings and their
// grouping into problems. Suite files author cases with `conformanceCase` (case.ts), which loads
// vitest and so stays out of this entry.
export * from './case-meta.js';
export * from './finding.js';
export * from './problems.js';
