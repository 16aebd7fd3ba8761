import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type HarnessOptions } from '../../../reference-harness/index.js';
import { startSuiteMocks, type SuiteMocks } from '../kit/mock-endpoints.js';
import { checkCallerOwnership, type HarnessFactory } from './ownership-check.js';

let mocks: SuiteMocks;
beforeAll(async () => {
  mocks = await startSuiteMocks();
});
afterAll(async () => {
  await mocks.close();
});

/** A harness that wrongly treats what it was lent as its own: close closes it all. */
const grabbingHarness: HarnessFactory = (options: HarnessOptions) => {
  const harness = createHarness(options);
  return {
    ...harness,
    async close() {
      await harness.close();
      await Promise.all(Object.values(options.transports ?? {}).map((t) => t.close()));
      for (const provider of Object.values(options.tokenProviders ?? {}))
        (provider as { close?(): void }).close?.();
    },
  };
};

describe('AHPX-SHUT-004 ownership check', () => {
  it('passes the reference harness', async () => {
    expect(await checkCallerOwnership(createHarness, mocks.endpoints, 2000)).toEqual([]);
  });

  it('fails a harness that closes the transport and provider it was lent', async () => {
    const problems = await checkCallerOwnership(grabbingHarness, mocks.endpoints, 2000);
    expect(problems.join('\n')).toMatch(/ended the injected transport's backend process/);
    expect(problems.join('\n')).toMatch(/closed the injected token provider/);
  });
});
