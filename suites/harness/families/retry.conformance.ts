/**
 * AHP-CORE-004 and the retry clauses (AHPX-RETRY-001, AHPX-RETRY-002): a harness allowed to retry
 * resends the very same bytes (event id, JSON-RPC id = event id, session, call and content; the
 * kit's wire check compares every delivery byte for byte), only while the original deadline
 * remains, and never after an explicit deny or a successful `[]`. A driver without
 * `features.retries` leaves these cases `untested`.
 */
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import type { Behaviour } from '../../../mock-backend/index.js';
import type { HarnessCase } from '../kit/case-model.js';
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { HARNESS_TRANSPORTS, type HarnessTransport } from '../kit/timing.js';
import { deliveredTimes, deliveriesWithinDeadline, settlesWithin } from './deadline-timing.js';
import { FAIL_FAST, RETRIES, failTwiceThenAnswerCase } from './retry-cases.js';
import { scaled } from '../../common/settings.js';

const fixture = useHarnessFixture({ concurrent: true });
const POLICIES: readonly FailurePolicy[] = ['fail-open', 'fail-closed'];

/**
 * The deadline-bound cases: every attempt but the last fails after a slow failure, and RETRIES slow
 * failures alone outlast the original deadline, so the deadline ends the sequence whatever a
 * process start costs; a harness that gives each retry a fresh deadline reaches the final attempt,
 * a deny, after the original deadline. Per_event deadlines leave room for process starts, so their
 * failures are slower: at 400 ms, three fast starts (the stdio mock boots in ~150 ms) let the
 * final deny in before a 2000 ms deadline, and the case failed a conforming harness.
 */
const SLOW_FAILURE_MS: Readonly<Record<HarnessTransport, number>> = {
  'stdio-persistent': 400,
  'stdio-per_event': 800,
  http: 400,
};
const BOUNDED_DEADLINE_MS: Readonly<Record<HarnessTransport, number>> = {
  'stdio-persistent': 1000,
  'stdio-per_event': 2000,
  http: 1000,
};
for (const transport of HARNESS_TRANSPORTS) {
  if (RETRIES * SLOW_FAILURE_MS[transport] <= BOUNDED_DEADLINE_MS[transport]) {
    throw new Error(`retry.conformance: ${transport} slow failures must outlast the bounded deadline`);
  }
}

const cases: HarnessCase[] = [];
for (const transport of HARNESS_TRANSPORTS) {
  for (const policy of POLICIES) {
    cases.push(
      failTwiceThenAnswerCase({
        name: `AHP-CORE-004/transport:${transport}/policy:${policy}/fail-first-2-then-answer-resends-identical-bytes`,
        requirements: ['AHP-CORE-004'],
        transport,
        policy,
      }),
    );
    cases.push({
      name: `AHP-CORE-004/transport:${transport}/policy:${policy}/fail-first-1-then-deny-resends-identical-bytes`,
      requirements: ['AHP-CORE-004'],
      transport,
      policy,
      retries: RETRIES,
      deadline: 'answer',
      behaviour: { kind: 'sequence', steps: [FAIL_FAST], then: { kind: 'deny', reason: 'denied on retry' } },
      expect: {
        decision: 'deny',
        synthetic: false,
        audit: { outcome: 'deny', synthetic: false },
        denyReason: 'denied on retry',
        because: 'one failure is retried and the second attempt denies',
        rule: 'retry.resend',
      },
      checks: [deliveredTimes(2, 'one failure then a deny take two identical deliveries', 'retry.resend')],
    });
    const decisions: ReadonlyArray<[string, Behaviour]> = [
      ['explicit-deny', { kind: 'deny', reason: 'denied once' }],
      ['successful-empty-effects', { kind: 'respond', effects: [] }],
    ];
    for (const [label, behaviour] of decisions) {
      cases.push({
        name: `AHPX-RETRY-001/transport:${transport}/policy:${policy}/${label}-is-never-retried`,
        requirements: ['AHPX-RETRY-001'],
        transport,
        policy,
        retries: RETRIES,
        deadline: 'answer',
        behaviour,
        checks: [
          deliveredTimes(
            1,
            `a ${label.replace(/-/g, ' ')} is a decision, never retried`,
            'retry.never-after-a-decision',
          ),
        ],
      });
    }
    const deadline = scaled(BOUNDED_DEADLINE_MS[transport]);
    const slowFailure: Behaviour = {
      kind: 'delay',
      ms: scaled(SLOW_FAILURE_MS[transport]),
      then: FAIL_FAST,
    };
    cases.push({
      name: `AHPX-RETRY-002/transport:${transport}/policy:${policy}/retries-stay-inside-the-original-deadline`,
      requirements: ['AHPX-RETRY-002', 'AHP-FAIL-002'],
      transport,
      policy,
      retries: RETRIES,
      deadline,
      behaviour: {
        kind: 'sequence',
        steps: Array.from({ length: RETRIES }, () => slowFailure),
        then: { kind: 'deny', reason: 'the final attempt, after the original deadline' },
      },
      expect: {
        audit: { classes: ['deadline-exceeded', 'jsonrpc-error'] },
        // A retry the deadline cuts may never reach the mock (a per_event spawn), so the number of
        // attempts is not compared with the deliveries here; their timing is.
        wire: 'any',
        because: 'slow failures are retried until the original deadline ends the sequence',
        rule: 'retry.inside-the-deadline',
      },
      checks: [
        deliveriesWithinDeadline(fixture),
        settlesWithin(
          fixture,
          'the original deadline',
          (_run, timeoutMs) => timeoutMs,
          'retry.inside-the-deadline',
        ),
      ],
    });
  }
}

harnessCases(fixture, cases);
