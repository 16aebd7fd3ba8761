import { conformanceCase, type CaseContext, type CaseSpec } from '../../common/case.js';
import { caseBehaviourKinds } from './behaviour-kinds.js';
import type { HarnessCase } from './case-model.js';
import { guardCase } from './case-guard.js';
import type { InitializeResult } from '../../driver/index.js';
import { unmetNeeds, usableTransports, type Needs } from './features.js';
import { stopOnStartFailure, type FixtureState, type HarnessFixture } from './fixture.js';
import type { HarnessTransport } from './timing.js';

/** The vitest timeout of a harness case, before scaling. */
export const CASE_TIMEOUT_MS = 60_000;

/** What `conformanceCase` needs of a harness case, and how it runs. */
interface Declared {
  name: string;
  requirements: string[];
  level?: HarnessCase['level'];
  transports: readonly string[];
  behaviours?: readonly string[];
  timeoutMs?: number;
  run(ctx: CaseContext): Promise<void>;
}

/** Declares each as a conformance case; names are unique within the file. */
function declareAll(fixture: HarnessFixture, declared: readonly Declared[]): void {
  const seen = new Set<string>();
  for (const c of declared) {
    if (seen.has(c.name)) throw new Error(`two harness cases are named "${c.name}"`);
    seen.add(c.name);
    conformanceCase(
      {
        name: c.name,
        requirements: c.requirements,
        ...(c.level === undefined ? {} : { level: c.level }),
        transports: [...c.transports],
        ...(c.behaviours === undefined ? {} : { behaviours: [...c.behaviours] }),
        // A safety net only: a case with a lost deadline race runs up to three times.
        timeoutMs: c.timeoutMs ?? CASE_TIMEOUT_MS,
        // vitest starts at most MAX_CONCURRENT_CASES of them at once, as many as the fixture has lanes.
        concurrent: fixture.concurrent,
      },
      (ctx) => c.run(ctx),
    );
  }
}

/** Declares each case as a conformance case run through the file's fixture. */
export function harnessCases(fixture: HarnessFixture, cases: readonly HarnessCase[]): void {
  declareAll(
    fixture,
    cases.map((c) => ({
      ...c,
      transports: [c.transport],
      behaviours: caseBehaviourKinds(c),
      run: (ctx) => fixture.run(c, ctx),
    })),
  );
}

/**
 * A case that runs over one transport, chosen when it runs: the first of `transports` the driver
 * announces (kit/features.ts decides, as for every case). `build` gives the case for that
 * transport and may read what else the driver announced.
 */
export interface TransportChoiceCase {
  name: string;
  requirements: string[];
  level?: HarnessCase['level'];
  /** The transports it may run over, preferred first. */
  transports: readonly HarnessTransport[];
  /** What else it needs of the driver, asked before the transport is chosen. */
  needs?: Omit<Needs, 'transport'>;
  /** The mock behaviours its built case uses, by kind (`build` runs only when the case does). */
  behaviours?: readonly string[];
  timeoutMs?: number;
  build(transport: HarnessTransport, info: InitializeResult): HarnessCase;
}

/** Declares cases that each run over the first of their transports the driver announces. */
export function harnessCasesOverOneTransport(
  fixture: HarnessFixture,
  cases: readonly TransportChoiceCase[],
): void {
  declareAll(
    fixture,
    cases.map((c) => ({
      ...c,
      async run(ctx) {
        let info: InitializeResult;
        try {
          info = fixture.state.info;
        } catch (error) {
          stopOnStartFailure(error, ctx);
        }
        const lacking = c.needs === undefined ? undefined : unmetNeeds(c.needs, info);
        if (lacking !== undefined) ctx.untested(lacking);
        const usable = usableTransports(c.transports, info);
        if ('untested' in usable) return ctx.untested(usable.untested);
        const [transport] = usable.transports as [HarnessTransport];
        ctx.evidence({ transport });
        await fixture.run(c.build(transport, info), ctx);
      },
    })),
  );
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
): void {
  conformanceCase(spec, async (ctx) => {
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
  });
}
