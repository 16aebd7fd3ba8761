// The documented blocks marked `slow` (full suite runs): a step of .ci/run of their own.
import { defineDocTests } from './lib/doc-suite.js';

defineDocTests({ slow: true });
