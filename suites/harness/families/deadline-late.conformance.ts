/**
 * AHPX-DL-002: after the deadline, a late reply is ignored, then and for later calls: the next
 * calls on the same harness are judged on their own replies even while the late one lands.
 */
import { inject } from 'vitest';
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import type { HarnessCase } from '../kit/case-model.js';
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { DEFAULT_SETTINGS, SETTINGS_KEY } from '../kit/provided.js';
import type { HarnessTransport } from '../kit/timing.js';
import { settlesWithin } from './deadline-timing.js';

const fixture = useHarnessFixture();
const scale = (inject(SETTINGS_KEY) ?? DEFAULT_SETTINGS).timeoutScale;

/**
 * The deadline of these cases, and how long the second call's backend takes. The second call is
 * still pending when the first call's late reply lands (lateBy < SECOND_CALL_DELAY_MS), and it
 * answers well inside the deadline (twice the delay fits in it).
 */
const DEADLINE_MS = 1000;
const SECOND_CALL_DELAY_MS = 450;
const TRANSPORTS: readonly HarnessTransport[] = ['stdio-persistent', 'http'];
const POLICIES: readonly FailurePolicy[] = ['fail-open', 'fail-closed'];

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

harnessCases(fixture, cases);
