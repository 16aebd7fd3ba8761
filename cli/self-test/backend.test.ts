// The self-test of the backend self-certification: the correct example passes over every binding
// and each broken example fails exactly the requirement it breaks, through the CLI in-process
// (pre-flight, suite run, report.json, exit code). Each case is a full vitest run of its own; a
// few run at once.
import { describe, it } from 'vitest';
import {
  BROKEN_STDIO_RUNS,
  checkSelfTest,
  CORRECT_RUNS,
  SELF_TEST_PARALLEL_RUNS,
  SELF_TEST_RUN_TIMEOUT_MS,
} from './backend-cases.js';
import { limiter } from '../../suites/common/test-support/limiter.js';

const slot = limiter(SELF_TEST_PARALLEL_RUNS);

describe.concurrent('backend self-certification: correct example and stdio twins', () => {
  for (const c of CORRECT_RUNS) {
    it(`${c.example} passes over ${c.binding}`, () => slot(() => checkSelfTest(c)), SELF_TEST_RUN_TIMEOUT_MS);
  }
  for (const c of BROKEN_STDIO_RUNS) {
    // A twin whose defect breaks only a SHOULD fails nothing: its run warns.
    const verdict =
      c.breaks.length > 0
        ? `fails exactly ${c.breaks.join(', ')}`
        : `warns on ${(c.warnings ?? []).join(', ')}`;
    it(
      `${c.example} over ${c.binding} ${verdict}`,
      () => slot(() => checkSelfTest(c)),
      SELF_TEST_RUN_TIMEOUT_MS,
    );
  }
});
