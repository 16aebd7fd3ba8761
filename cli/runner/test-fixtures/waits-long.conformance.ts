// For the runner's tests of cli/, never part of a real run: a case that waits far longer than any
// test gives it (a call its driver never answers), and a teardown that does too (a `close` the
// driver never answers), so only a run that stops the file where it is ends in time.
import { afterAll } from 'vitest';
import { conformanceCase } from '../../../suites/common/case.js';

/** How long the case waits; the tests bound a run that must stop it well below this. */
export const WAITS_MS = 60_000;

/**
 * Longer than the 100 ms for which vitest 4.1's worker holds back result updates. An update it
 * holds back is lost when its timer fires within those 100 ms by the wall clock (the spent timer
 * is never cleared, so no new one is set), and goes out only with the next event: here the end of
 * the long case, a minute later. A quick case that ends in the same millisecond as the update
 * before it can hit that; one that ends after the window is sent at once.
 */
const QUICK_MS = 150;

conformanceCase(
  { name: 'AHP-FAIL-001/fixture/quick', requirements: ['AHP-FAIL-001'] },
  () => new Promise((resolve) => setTimeout(resolve, QUICK_MS)),
);

conformanceCase(
  { name: 'AHP-FAIL-002/fixture/waits-long', requirements: ['AHP-FAIL-002'], timeoutMs: 2 * WAITS_MS },
  async () => {
    await new Promise((resolve) => setTimeout(resolve, WAITS_MS));
  },
);

afterAll(() => new Promise((resolve) => setTimeout(resolve, WAITS_MS)), 2 * WAITS_MS);
