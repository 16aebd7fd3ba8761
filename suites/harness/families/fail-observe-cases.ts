/**
 * AHPX-FAIL-006 / AHP-FAIL-001: an observe subscription's failure never changes the settled
 * decision, under either policy of the interceptor, and the notification is really delivered.
 */
import type { Behaviour } from '../../../mock-backend/index.js';
import type { CaseCheck, HarnessCase } from '../kit/case-model.js';
import { finding } from '../kit/rules.js';
import { HARNESS_TRANSPORTS, type HarnessTransport } from '../kit/timing.js';
import { EXPLICIT_DENY_REASON, POLICIES } from './fail-matrix.js';

/**
 * How the observer fails on each transport: an error status, a per-event process that dies, and
 * a persistent one that answers a notification with garbage (it stays up: the next call's
 * observation then needs no restart, which the seed does not require).
 */
const OBSERVER_FAILURE: Readonly<Record<HarnessTransport, Behaviour>> = {
  'stdio-persistent': { kind: 'raw', chunks: [{ text: 'observer failure: not JSON\n' }] },
  'stdio-per_event': { kind: 'exit', code: 3 },
  http: { kind: 'http-status', status: 500 },
};

/** The observe notification of the call reached the mock (it is what fails). */
const observerReached: CaseCheck = {
  name: 'observe notification delivered',
  async run(run, context) {
    // Stdio mocks record through the control server, possibly after the driver answered.
    await context.waitForFrames(run.index, 'hooks/observe', 1);
    return context.recordsNow(run.index).notifications.length > 0
      ? []
      : [
          finding(
            'observe.delivered',
            'no hooks/observe notification for this call reached the mock, so the observer failure was never exercised',
          ),
        ];
  },
};

/** Observer failures over every transport, under both interceptor policies. */
export function observerFailureCases(): HarnessCase[] {
  return HARNESS_TRANSPORTS.flatMap((transport) =>
    POLICIES.map((policy) => ({
      name: `AHPX-FAIL-006/transport:${transport}/policy:${policy}/observer-failure-keeps-the-decision`,
      requirements: ['AHPX-FAIL-006', 'AHP-FAIL-001'],
      transport,
      policy,
      label: 'interceptor-answers-empty',
      behaviour: { kind: 'respond' },
      // Per-event calls cost two processes each (interceptor and observer): the empty answer,
      // the case a harness that applied fail-closed to the observer would turn into a deny, is enough.
      ...(transport === 'stdio-per_event'
        ? {}
        : {
            then: [
              {
                label: 'interceptor-denies',
                behaviour: { kind: 'deny' as const, reason: EXPLICIT_DENY_REASON },
              },
            ],
          }),
      observe: { behaviour: OBSERVER_FAILURE[transport] },
      checks: [observerReached],
    })),
  );
}
