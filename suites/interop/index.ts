// The public surface of the interop runner, for the CLI: the loader, what the suite file is
// given, and the coverage table of `list --interop`.
export { InteropInputError, loadInterop, type InteropSet } from './load.js';
export { INTEROP_PATH_KEY, INTEROP_SUITE_GLOB } from './provided.js';
export { interopCoverage, INTEROP_COVERAGE, matchesPattern, type ScenarioCoverage } from './coverage.js';
