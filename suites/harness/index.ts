// The public surface of the harness suite, for the CLI: the suite's version, the claim an
// initialize result makes, the target and settings the CLI hands the suite files, and the name of
// the case the reference harness cannot serve by design.
export { claimFor } from './families/core-claim-rules.js';
export { SUITE_VERSION } from './kit/lane-driver.js';
export { DEFAULT_SETTINGS } from '../common/settings.js';
export { type HarnessTarget } from './kit/provided.js';
export { OPERATION_CASE_LABEL } from './families/edit-case-data.js';
