/**
 * Interruption (AHPX-INT-001, AHPX-INT-002): cancelling a call while its request is pending ends it
 * at once, overrides fail-open (an interrupted call is never "continue"), and a reply that lands
 * after the cancellation does not revive it.
 */
import { inject } from 'vitest';
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import type { HarnessCase } from '../kit/case-model.js';
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { DEFAULT_SETTINGS, SETTINGS_KEY } from '../kit/provided.js';
import { HARNESS_TRANSPORTS, type HarnessTransport } from '../kit/timing.js';
import { settlesWithin } from './deadline-timing.js';

const fixture = useHarnessFixture();
const scale = (inject(SETTINGS_KEY) ?? DEFAULT_SETTINGS).timeoutScale;

/**
 * When the call is cancelled, from the start of the call: long enough for the request to have
 * reached the backend (stdio backends are spawned by the call first), far below the deadline.
 */
const CANCEL_AFTER_MS: Readonly<Record<HarnessTransport, number>> = {
  // A process start takes seconds on a loaded machine, and it happens inside the call.
  'stdio-persistent': Math.round(3000 * scale),
  'stdio-per_event': Math.round(3000 * scale),
  http: Math.round(600 * scale),
};
/** The reply of the revival cases lands this long after the cancellation. */
const REPLY_AFTER_CANCEL_MS = Math.round(400 * scale);
/**
 * The deadline: well past the cancellation plus the late reply, so "ended at once" and "ended at
 * the deadline" cannot be confused, yet short enough that a harness ignoring the cancellation
 * costs the run little.
 */
const DEADLINE_MS: Readonly<Record<HarnessTransport, number>> = {
  'stdio-persistent': Math.round(8000 * scale),
  'stdio-per_event': Math.round(8000 * scale),
  http: Math.round(2500 * scale),
};
const POLICIES: readonly FailurePolicy[] = ['fail-open', 'fail-closed'];

const cases: HarnessCase[] = [];
for (const transport of HARNESS_TRANSPORTS) {
  const cancelAfterMs = CANCEL_AFTER_MS[transport];
  const endsAtCancel = settlesWithin(fixture, 'the cancellation', () => cancelAfterMs);
  for (const policy of POLICIES) {
    cases.push({
      name: `AHPX-INT-001/transport:${transport}/policy:${policy}/cancel-during-a-pending-request-ends-it-at-once`,
      requirements: ['AHPX-INT-001'],
      transport,
      policy,
      deadline: DEADLINE_MS[transport],
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
    deadline: DEADLINE_MS[transport],
    behaviour: {
      kind: 'delay',
      ms: cancelAfterMs + REPLY_AFTER_CANCEL_MS,
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
    // The same harness then answers a new call from its own reply.
    then: [{ behaviour: { kind: 'respond', effects: [] } }],
  });
}

harnessCases(fixture, cases);
