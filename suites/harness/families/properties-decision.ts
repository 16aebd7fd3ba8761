/**
 * Property (AHP-FAIL-001): over generated chains of intercept subscriptions on one backend, each
 * with its own policy and each delivery its own answer, deny or fast operational failure, the
 * settled decision and the deliveries are the ones the seed's rules predict (properties-model.ts,
 * a model of its own, independent of the kit's derivation).
 */
import fc from 'fast-check';
import { driverCase } from '../kit/define.js';
import type { HarnessFixture } from '../kit/fixture.js';
import type { HarnessTransport } from '../kit/timing.js';
import { DECISIONS, fastFailures, predictChain } from './properties-model.js';
import {
  assertProperty,
  compareWithPrediction,
  propertyTransportOrUntested,
  runCallPlan,
} from './properties-support.js';

/** A chain of one to three subscriptions, each with its policy and its delivery's behaviour. */
const linksOver = (transport: HarnessTransport) =>
  fc.array(
    fc.record({
      policy: fc.constantFrom('fail-open' as const, 'fail-closed' as const),
      step: fc.constantFrom(...DECISIONS, ...fastFailures(transport)),
    }),
    { minLength: 1, maxLength: 3 },
  );

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
      const chain = propertyTransportOrUntested(state, ctx).chain((transport) =>
        fc.record({ transport: fc.constant(transport), links: linksOver(transport) }),
      );
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
