/**
 * AHPX-SHUT-004 in-process: closing the reference harness leaves the caller's injected transport
 * and token provider open (ownership-check.ts). A driver cannot be lent either, so for a driver
 * target this case is `untested`.
 */
import { failOn } from '../kit/rules.js';
import { afterAll, beforeAll, inject } from 'vitest';
import { createHarness } from '../../../reference-harness/index.js';
import { conformanceCase } from '../../common/case.js';
import { startSuiteMocks, type SuiteMocks } from '../kit/mock-endpoints.js';
import { HARNESS_TARGET_KEY } from '../kit/provided.js';
import { inProcessUnavailable } from './in-process-target.js';
import { checkCallerOwnership } from './ownership-check.js';
import { hookTimeoutMs, scaled } from '../../common/settings.js';

/** Declares the ownership case (hooks included) in the calling suite file. */
export function declareOwnershipCase(): void {
  /** The reaping bound handed to the harness and the injected transport. */
  const KILL_GRACE_MS = scaled(2000);
  let mocks: SuiteMocks | undefined;
  beforeAll(async () => {
    if (inProcessUnavailable(inject(HARNESS_TARGET_KEY)) === undefined) mocks = await startSuiteMocks();
  }, hookTimeoutMs());
  afterAll(async () => {
    await mocks?.close();
  }, hookTimeoutMs());

  conformanceCase(
    {
      name: 'AHPX-SHUT-004/in-process/close-leaves-injected-transports-and-token-providers-open',
      requirements: ['AHPX-SHUT-004'],
      transports: ['stdio-persistent', 'http'],
    },
    async (ctx) => {
      const unavailable = inProcessUnavailable(inject(HARNESS_TARGET_KEY));
      if (unavailable !== undefined || !mocks) ctx.untested(unavailable ?? 'the mocks did not start');
      const { stdio, httpUrl } = (mocks as SuiteMocks).endpoints;
      const problems = await checkCallerOwnership(createHarness, { stdio, httpUrl }, KILL_GRACE_MS);
      failOn('shutdown.caller-owned', problems);
    },
  );
}
