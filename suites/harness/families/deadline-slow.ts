/**
 * AHP-FAIL-002 over a backend that answers too late: the reply is held past the deadline, and the
 * deadline decides, by the policy, in time. Built per transport so the stdio cases can run in a
 * file of their own (deadline-stdio.conformance.ts) beside the HTTP ones.
 */
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import type { HarnessCase } from '../kit/case-model.js';
import type { HarnessFixture } from '../kit/fixture.js';
import type { HarnessTransport } from '../kit/timing.js';
import { settlesByTheDeadline } from './deadline-timing.js';
import { scaled } from '../../common/settings.js';

const POLICIES: readonly FailurePolicy[] = ['fail-open', 'fail-closed'];

/**
 * A persistent backend is spawned by the first call, inside its deadline: the kit's short
 * deadline leaves a loaded machine no room for that, so the slow-backend cases give it more.
 */
const PERSISTENT_SLOW_DEADLINE_MS = 1500;

/**
 * A reply only `justLateByMs` after the deadline (kit/just-late.ts), one per policy, over HTTP:
 * under fail-open a late deny, under fail-closed a late allow, so that taking it shows in the
 * decision. The cases above catch a harness that waits much longer; these, one that stretches its
 * deadline a little. A first call answered at once warms the harness's connection and code, so
 * that the just-late call reaches the mock soon after the harness starts counting its deadline
 * (a failed warm-up only makes the attempt inconclusive).
 */
export function justLateCases(): HarnessCase[] {
  return POLICIES.map((policy) => ({
    name: `AHP-FAIL-002/transport:http/policy:${policy}/reply-just-after-the-deadline-is-not-taken`,
    requirements: ['AHP-FAIL-002'],
    transport: 'http',
    policy,
    deadline: 'short',
    behaviour: { kind: 'respond', effects: [] },
    label: 'warm-up',
    then: [
      {
        behaviour:
          policy === 'fail-open'
            ? { kind: 'deny', reason: 'just-late deny' }
            : { kind: 'respond', effects: [] },
        late: 'just',
        label: 'just late',
      },
    ],
  }));
}

/** The slow-backend cases of `transport`, one per policy. */
export function slowBackendCases(fixture: HarnessFixture, transport: HarnessTransport): HarnessCase[] {
  return POLICIES.map((policy) => ({
    name: `AHP-FAIL-002/transport:${transport}/policy:${policy}/slow-backend-settles-by-the-deadline`,
    requirements: ['AHP-FAIL-002'],
    transport,
    policy,
    behaviour: { kind: 'deny', reason: 'late deny' },
    late: true,
    ...(transport === 'stdio-persistent' ? { deadline: scaled(PERSISTENT_SLOW_DEADLINE_MS) } : {}),
    checks: [settlesByTheDeadline(fixture)],
  }));
}
