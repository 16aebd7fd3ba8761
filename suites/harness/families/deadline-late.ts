/**
 * AHPX-DL-002: after the deadline, a late reply is ignored, then and for later calls: the next
 * calls on the same harness are judged on their own replies even while the late one lands.
 */
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import type { HarnessCase } from '../kit/case-model.js';
import type { HarnessFixture } from '../kit/fixture.js';
import type { HarnessTransport } from '../kit/timing.js';
import { settlesByTheDeadline } from './deadline-timing.js';
import { scaled } from '../../common/settings.js';

/**
 * The timeline, from the first request's arrival at the mock: the first call's deadline ends at
 * DEADLINE_MS; its reply lands LATE_BY_MS after that, while the second call (sent as soon as the
 * first is answered: well under LATE_BY_MS) is still waiting for its own reply, which the mock
 * holds SECOND_CALL_DELAY_MS (past the late reply, half the deadline at most). So the late reply
 * always arrives while the next call is pending on the same backend: on a persistent stdio pipe it
 * is a frame the harness must not take as the second call's reply.
 * The persistent stdio deadline is long because a harness may (as the reference one does) replace
 * a persistent process that still owes an abandoned reply: the second call then pays a process
 * start inside its own deadline, which takes seconds on a loaded machine. Over HTTP no call starts
 * a process, so its deadline need only hold the second reply's delay with as much again to spare;
 * each of these cases spends the first deadline in full.
 */
const DEADLINE_MS: Readonly<Record<'stdio-persistent' | 'http', number>> = {
  'stdio-persistent': 5000,
  http: 3000,
};
const LATE_BY_MS = 1000;
const SECOND_CALL_DELAY_MS = 1500;
const POLICIES: readonly FailurePolicy[] = ['fail-open', 'fail-closed'];

/** The late-reply cases of `transport` (stdio-persistent or http), one per policy. */
export function lateReplyCases(
  fixture: HarnessFixture,
  transport: Exclude<HarnessTransport, 'stdio-per_event'>,
): HarnessCase[] {
  return POLICIES.map((policy) => ({
    name: `AHPX-DL-002/transport:${transport}/policy:${policy}/late-reply-changes-nothing-then-or-later`,
    requirements: ['AHPX-DL-002'],
    transport,
    policy,
    deadline: scaled(DEADLINE_MS[transport]),
    // A late deny: had the harness taken it, the first call would deny even under fail-open.
    behaviour: {
      kind: 'delay',
      ms: scaled(DEADLINE_MS[transport] + LATE_BY_MS),
      then: { kind: 'deny', reason: 'late deny' },
    },
    checks: [settlesByTheDeadline(fixture)],
    then: [
      {
        behaviour: {
          kind: 'delay',
          ms: scaled(SECOND_CALL_DELAY_MS),
          then: { kind: 'respond', effects: [] },
        },
      },
      { behaviour: { kind: 'deny', reason: 'second deny' } },
    ],
  }));
}
