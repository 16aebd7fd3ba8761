// The binding-agnostic broken examples, self-certified over HTTP (a case costs no process start
// there). A file of its own so that vitest can run it beside the stdio self-test.
import { describe, it } from 'vitest';
import {
  BROKEN_HTTP_RUNS,
  checkSelfTest,
  SELF_TEST_PARALLEL_RUNS,
  SELF_TEST_RUN_TIMEOUT_MS,
} from './backend-cases.js';
import { limiter } from '../../suites/common/test-support/limiter.js';

const slot = limiter(SELF_TEST_PARALLEL_RUNS);

describe.concurrent('backend self-certification: HTTP twins', () => {
  for (const c of BROKEN_HTTP_RUNS) {
    const what =
      c.breaks.length > 0
        ? `fails exactly ${c.breaks.join(', ')}`
        : c.warnings
          ? `warns on ${c.warnings.join(', ')}`
          : `leaves exactly ${(c.untested?.requirements ?? []).join(', ')} untested`;
    it(`${c.example} ${what}`, () => slot(() => checkSelfTest(c)), SELF_TEST_RUN_TIMEOUT_MS);
  }
});
