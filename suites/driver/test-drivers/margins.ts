import { fileURLToPath } from 'node:url';

/** The misbehaving driver script of the client tests; its first argument picks the defect. */
export const FAKE_DRIVER = fileURLToPath(new URL('./fake-driver.mjs', import.meta.url));

/**
 * Named margins for tests that need real time. This 2-core VM is noisy: a plain node child boots
 * in ~150 ms and a tsx-loaded TypeScript driver in ~1 s, so each bound is several times that.
 */
export const DRIVER_TEST_MARGINS = {
  /** Boot of a plain node child, with slack for a loaded machine. */
  spawnMs: 3_000,
  /** Boot of the reference driver through tsx (transpiles on first load). */
  tsxBootMs: 10_000,
  /** Short initialize timeout against drivers that never answer. */
  shortInitializeMs: 1_000,
  /** Kill grace used against a SIGTERM-ignoring driver. */
  killGraceMs: 300,
} as const;
