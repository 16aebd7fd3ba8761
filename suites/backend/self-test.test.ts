// The self-test of the backend self-certification: the correct example passes over every binding
// and each broken example fails exactly the requirement it breaks, through the CLI in-process
// (pre-flight, suite run, report.json, exit code). Cases run one after another: each is a full
// vitest run of its own.
import { describe, it } from 'vitest';
import {
  BROKEN_STDIO_RUNS,
  checkSelfTest,
  CORRECT_RUNS,
  SELF_TEST_RUN_TIMEOUT_MS,
} from './self-test-cases.js';

describe('backend self-certification: correct example', () => {
  for (const c of CORRECT_RUNS) {
    it(`passes over ${c.binding}`, () => checkSelfTest(c), SELF_TEST_RUN_TIMEOUT_MS);
  }
});

describe('backend self-certification: broken stdio examples', () => {
  for (const c of BROKEN_STDIO_RUNS) {
    it(
      `${c.example} over ${c.binding} fails exactly ${c.failed.join(', ')}`,
      () => checkSelfTest(c),
      SELF_TEST_RUN_TIMEOUT_MS,
    );
  }
});
