import { inject } from 'vitest';
import { conformanceCase, type CaseContext, type CaseSpec } from '../../kit/case.js';
import type { HarnessCase } from './case-model.js';
import { guardCase } from './case-guard.js';
import { unmetNeeds, type Needs } from './features.js';
import { stopOnStartFailure, type FixtureState, type HarnessFixture } from './fixture.js';
import { DEFAULT_SETTINGS, SETTINGS_KEY } from './provided.js';

/** The vitest timeout of a harness case, before scaling. */
export const CASE_TIMEOUT_MS = 60_000;

/** Declares each case as a conformance case run through the file's fixture. */
export function harnessCases(fixture: HarnessFixture, cases: readonly HarnessCase[]): void {
  // Read at collection time: `list` collects without a runner's settings, hence the default.
  const scale = (inject(SETTINGS_KEY) ?? DEFAULT_SETTINGS).timeoutScale;
  const seen = new Set<string>();
  for (const c of cases) {
    if (seen.has(c.name)) throw new Error(`two harness cases are named "${c.name}"`);
    seen.add(c.name);
    conformanceCase(
      {
        name: c.name,
        requirements: c.requirements,
        ...(c.level === undefined ? {} : { level: c.level }),
        transports: [c.transport],
        // A safety net only: a case with a lost deadline race runs up to three times.
        timeoutMs: c.timeoutMs ?? CASE_TIMEOUT_MS,
        // vitest starts at most MAX_CONCURRENT_CASES of them at once, as many as the fixture has lanes.
        concurrent: fixture.concurrent,
      },
      (ctx) => fixture.run(c, ctx),
      scale,
    );
  }
}

/**
 * Declares a case whose body drives the fixture's first lane itself (`fixture.state`): it is
 * `untested` with the reason when the driver does not announce what `needs` names, it starts on
 * fresh mock recordings, and it gets the guard every data case has (case-guard.ts).
 */
export function driverCase(
  fixture: HarnessFixture,
  spec: CaseSpec,
  needs: Needs,
  body: (ctx: CaseContext, state: FixtureState) => Promise<void> | void,
  scale: number,
): void {
  conformanceCase(
    spec,
    async (ctx) => {
      let state: FixtureState;
      try {
        state = fixture.state;
      } catch (error) {
        stopOnStartFailure(error, ctx);
      }
      const lacking = unmetNeeds(needs, state.info);
      if (lacking !== undefined) ctx.untested(lacking);
      state.mocks.control.reset();
      state.mocks.http.reset();
      await guardCase(
        () => state,
        ctx,
        async () => body(ctx, state),
      );
    },
    scale,
  );
}
