// The StrykerJS plugins of a mutation run (docs/mutation.md): the test runner whose tests are
// the conformance suite's cases, and the reporter that logs each verdict as it comes.
import { conformanceRunnerPlugin } from './conformance-runner.js';
import { liveLogPlugin } from './live-log.js';

export const strykerPlugins = [conformanceRunnerPlugin, liveLogPlugin];
