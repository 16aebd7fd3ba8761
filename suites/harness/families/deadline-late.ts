/**
 * AHPX-DL-002: after the deadline, a late reply is ignored, then and for later calls: the next
 * calls on the same harness are judged on their own replies even while the late one lands.
 */
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import type { HarnessCase } from '../kit/case-model.js';
import type { HarnessFixture } from '../kit/fixture.js';
import type { HarnessTransport } from '../kit/timing.js';
import { settlesWithin } from './deadline-timing.js';

/**
 * The deadline of these cases, and how long the second call's backend takes. The second call is
 * still pending when the first call's late reply lands (lateBy < SECOND_CALL_DELAY_MS), and it
 * answers far inside the deadline (2.5 s to spare: a loaded machine delayed it past 1.5 s once).
 */
const DEADLINE_MS = 3000;
const SECOND_CALL_DELAY_MS = 500;
const TRANSPORTS: readonly HarnessTransport[] = ['stdio-persistent', 'http'];
const POLICIES: readonly FailurePolicy[] = ['fail-open', 'fail-closed'];

/** The late-reply cases of the deadline family. */
export function lateReplyCases(fixture: HarnessFixture, scale: number): HarnessCase[] {
  const cases: HarnessCase[] = [];
  for (const transport of TRANSPORTS) {
    for (const policy of POLICIES) {
      cases.push({
        name: `AHPX-DL-002/transport:${transport}/policy:${policy}/late-reply-changes-nothing-then-or-later`,
        requirements: ['AHPX-DL-002'],
        transport,
        policy,
        deadline: Math.round(DEADLINE_MS * scale),
        // A late deny: had the harness taken it, the first call would deny even under fail-open.
        behaviour: { kind: 'deny', reason: 'late deny' },
        late: true,
        checks: [settlesWithin(fixture, 'the deadline', (_run, timeoutMs) => timeoutMs)],
        then: [
          {
            behaviour: {
              kind: 'delay',
              ms: Math.round(SECOND_CALL_DELAY_MS * scale),
              then: { kind: 'respond', effects: [] },
            },
          },
          { behaviour: { kind: 'deny', reason: 'second deny' } },
        ],
      });
    }
  }

  return cases;
}
