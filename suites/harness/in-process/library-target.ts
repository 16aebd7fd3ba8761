/**
 * The harness an in-process case runs: the bundled reference harness as a library when the run's
 * target is its driver; a broken twin's library form when the target is that twin (so the
 * self-test proves these cases both ways); nothing for any other driver, whose cases are then
 * `untested` (the driver protocol cannot hand a harness token providers or callbacks).
 */
import { createHarness, type Harness, type HarnessOptions } from '../../../reference-harness/index.js';
import { inject } from 'vitest';
import type { CaseContext } from '../../common/case.js';
import { HARNESS_TARGET_KEY, type HarnessTarget } from '../kit/provided.js';
import { inProcessUnavailable } from './in-process-target.js';

/** Builds a harness from options, as `createHarness` does. */
export type LibraryHarness = (options: HarnessOptions) => Harness;

/** The factory for the run's target, or why the target cannot run in-process cases. */
export async function libraryHarness(
  target: HarnessTarget | undefined,
): Promise<{ factory: LibraryHarness } | { unavailable: string }> {
  const unavailable = inProcessUnavailable(target);
  if (unavailable === undefined) return { factory: createHarness };
  if (target !== undefined) {
    const twins = await import('../../../fixtures/harnesses/lib/library.js');
    const twin = twins.twinOfCommand(target.command);
    if (twin !== undefined) {
      const factory = twins.twinLibrary(twin);
      return factory ? { factory } : { unavailable: `the broken twin "${twin}" has no library form` };
    }
  }
  return { unavailable };
}

/** The run's library harness for a case, or the case ends `untested` with the reason there is none. */
export async function caseLibrary(ctx: CaseContext): Promise<LibraryHarness> {
  const resolved = await libraryHarness(inject(HARNESS_TARGET_KEY));
  if (!('factory' in resolved)) ctx.untested(resolved.unavailable);
  return resolved.factory;
}
