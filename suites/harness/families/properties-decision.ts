/**
 * Property (AHP-FAIL-001): over generated chains of intercept subscriptions on one backend, each
 * with its own policy and each delivery its own answer, deny or fast operational failure, the
 * settled decision and the deliveries are the ones the seed's rules predict (properties-model.ts,
 * a model of its own, independent of the kit's derivation).
 */
import fc from 'fast-check';
import { driverCase } from '../kit/define.js';
import type { HarnessFixture } from '../kit/fixture.js';
import { DECISIONS, FAST_FAILURES, predictChain } from './properties-model.js';
import {
  assertProperty,
  compareWithPrediction,
  propertyTransportOrUntested,
  runCallPlan,
} from './properties-support.js';

const link = fc.record({
  policy: fc.constantFrom('fail-open' as const, 'fail-closed' as const),
  step: fc.constantFrom(...DECISIONS, ...FAST_FAILURES),
});
const links = fc.array(link, { minLength: 1, maxLength: 3 });

/** Declares the property's case on the file's fixture. */
export function declareDecisionProperty(fixture: HarnessFixture): void {
  driverCase(
    fixture,
    {
      name: 'AHP-FAIL-001/property/chains-of-subscriptions-settle-as-the-rules-predict',
      requirements: ['AHP-FAIL-001', 'AHPX-FAIL-008'],
      transports: ['http', 'stdio-persistent'],
      timeoutMs: 120_000,
    },
    {},
    async (ctx, state) => {
      const chain = fc.record({ transport: propertyTransportOrUntested(state, ctx), links });
      await assertProperty(state, ctx, chain, async ({ transport, links }) => {
        const predicted = predictChain(links.map((l) => ({ policy: l.policy, outcome: l.step.outcome })));
        const run = await runCallPlan(
          state,
          {
            transport,
            policies: links.map((l) => l.policy),
            deliveries: links.map((l) => l.step.behaviour),
            timeoutMs: state.margins.answerDeadlineMs,
          },
          predicted.deliveries,
        );
        return compareWithPrediction(run, predicted);
      });
    },
  );
}
