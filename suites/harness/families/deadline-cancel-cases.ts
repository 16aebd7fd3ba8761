/**
 * The interruption cases (AHPX-INT-001, AHPX-INT-002), per transport: cancelling a call while its
 * request is pending ends it at once, overrides fail-open (an interrupted call is never
 * "continue"), and a reply that lands after the cancellation does not revive it. Each transport's
 * cases run in a file of their own (deadline-cancel*.conformance.ts): the stdio cases wait seconds
 * for a process start before they cancel, and in one file they made it one of the run's longest.
 */
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import type { HarnessCase } from '../kit/case-model.js';
import type { HarnessFixture } from '../kit/fixture.js';
import type { HarnessTransport } from '../kit/timing.js';
import { settlesWithin } from './deadline-timing.js';
import { scaled } from '../../common/settings.js';

/**
 * When the call is cancelled, from the start of the call: long enough for the request to have
 * reached the backend (stdio backends are spawned by the call first), far below the deadline.
 */
const CANCEL_AFTER_MS: Readonly<Record<HarnessTransport, number>> = {
  // A process start takes seconds on a loaded machine, and it happens inside the call.
  'stdio-persistent': 3000,
  'stdio-per_event': 3000,
  http: 600,
};
/** The reply of the revival cases lands this long after the cancellation. */
const REPLY_AFTER_CANCEL_MS = 400;
/**
 * The deadline: well past the cancellation plus the late reply, so "ended at once" and "ended at
 * the deadline" cannot be confused, yet short enough that a harness ignoring the cancellation
 * costs the run little.
 */
const DEADLINE_MS: Readonly<Record<HarnessTransport, number>> = {
  'stdio-persistent': 8000,
  'stdio-per_event': 8000,
  http: 2500,
};
const POLICIES: readonly FailurePolicy[] = ['fail-open', 'fail-closed'];

/** The interruption cases of `transport`, every time scaled by the run's timeout scale. */
export function cancelCases(fixture: HarnessFixture, transport: HarnessTransport): HarnessCase[] {
  const cases: HarnessCase[] = [];
  const cancelAfterMs = scaled(CANCEL_AFTER_MS[transport]);
  const deadline = scaled(DEADLINE_MS[transport]);
  const endsAtCancel = settlesWithin(
    fixture,
    'the cancellation',
    () => cancelAfterMs,
    'interrupt.cancel-ends-the-call',
  );
  for (const policy of POLICIES) {
    cases.push({
      name: `AHPX-INT-001/transport:${transport}/policy:${policy}/cancel-during-a-pending-request-ends-it-at-once`,
      requirements: ['AHPX-INT-001'],
      transport,
      policy,
      deadline,
      behaviour: { kind: 'hang' },
      invoke: { cancelAfterMs },
      checks: [endsAtCancel],
    });
  }
  cases.push({
    name: `AHPX-INT-002/transport:${transport}/policy:fail-open/a-reply-after-cancel-does-not-revive-the-call`,
    requirements: ['AHPX-INT-002'],
    transport,
    policy: 'fail-open',
    deadline,
    behaviour: {
      kind: 'delay',
      ms: cancelAfterMs + scaled(REPLY_AFTER_CANCEL_MS),
      then: { kind: 'respond', effects: [] },
    },
    invoke: { cancelAfterMs },
    expect: {
      decision: 'deny',
      synthetic: true,
      interrupted: true,
      ending: 'cancelled',
      audit: { outcome: 'interrupted' },
      wire: 'delivered',
      because: 'the call is cancelled before the reply, and a later reply never revives it',
    },
    checks: [endsAtCancel],
    // The driver counts the cancellation from its start of the call, the mock the reply from the
    // request's arrival: a process start or a loaded socket that outlasts the cancellation leaves
    // no request for a reply to revive, and the attempt runs again.
    needsPendingRequest: 'whether a reply after the cancellation revives the call',
    // The same harness then answers a new call from its own reply.
    then: [{ behaviour: { kind: 'respond', effects: [] } }],
  });
  return cases;
}
