/**
 * Property (AHP-CORE-004): over generated retry-inducing failures (how many, of
 * which kinds, how many retries allowed, which final decision), every delivery of the call is
 * byte-identical with the JSON-RPC id equal to the event id, all of them arrive inside the
 * original deadline, and the number of deliveries and the decision are the model's.
 */
import fc from 'fast-check';
import { driverCase } from '../kit/define.js';
import type { HarnessFixture } from '../kit/fixture.js';
import type { HarnessTransport } from '../kit/timing.js';
import { finding } from '../kit/rules.js';
import { arrivalGapMs, bytesText } from '../kit/wire-records.js';
import { DECISIONS, fastFailures, predictRetries } from './properties-model.js';
import {
  assertProperty,
  compareWithPrediction,
  propertyTransportOrUntested,
  runCallPlan,
} from './properties-support.js';
import { DELIVERY_SLACK_MS } from './deadline-timing.js';
import { scaled } from '../../common/settings.js';

const shapeOver = (transport: HarnessTransport) => ({
  transport: fc.constant(transport),
  policy: fc.constantFrom('fail-open' as const, 'fail-closed' as const),
  failures: fc.array(fc.constantFrom(...fastFailures(transport)), { maxLength: 3 }),
  final: fc.constantFrom(...DECISIONS),
  retries: fc.integer({ min: 0, max: 3 }),
});

/** Declares the property's case on the file's fixture. */
export function declareRetryProperty(fixture: HarnessFixture): void {
  driverCase(
    fixture,
    {
      name: 'AHP-CORE-004/property/retries-resend-identical-bytes-inside-the-deadline',
      requirements: ['AHP-CORE-004'],
      transports: ['http', 'stdio-persistent'],
      timeoutMs: 120_000,
    },
    {},
    async (ctx, state) => {
      const plan = propertyTransportOrUntested(state, ctx, ['retries']).chain((transport) =>
        fc.record(shapeOver(transport)),
      );
      const timeoutMs = state.margins.answerDeadlineMs;
      await assertProperty(state, ctx, plan, async ({ transport, policy, failures, final, retries }) => {
        const predicted = predictRetries({
          failures: failures.length,
          final: final.outcome as 'answer' | 'deny',
          retries,
          policy,
        });
        const run = await runCallPlan(
          state,
          {
            transport,
            policies: [policy],
            deliveries: [...failures.map((f) => f.behaviour), final.behaviour],
            retries,
            timeoutMs,
          },
          predicted.deliveries,
        );
        const problems = compareWithPrediction(run, predicted);
        const [first, ...rest] = run.requests;
        for (const r of run.requests) {
          if (r.jsonrpcId !== r.eventId) {
            problems.push(
              finding(
                'intercept.id-is-event-id',
                `delivery ${r.delivery}: the JSON-RPC id is not the event id`,
              ),
            );
          }
        }
        for (const r of rest) {
          if (first && bytesText(r.bytes) !== bytesText(first.bytes)) {
            problems.push(
              finding(
                'retry.identical-bytes',
                `delivery ${r.delivery} differs from the first delivery of the call`,
              ),
            );
          }
          if (first && arrivalGapMs(first, r) > timeoutMs + scaled(DELIVERY_SLACK_MS)) {
            problems.push(
              finding(
                'retry.inside-the-deadline',
                `delivery ${r.delivery} arrived after the original deadline`,
              ),
            );
          }
        }
        return problems;
      });
    },
  );
}
