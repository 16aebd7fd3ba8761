/**
 * AHP-FAIL-002 over a backend that answers too late: the reply is held past the deadline, and the
 * deadline decides, by the policy, in time. Built per transport so the stdio cases can run in a
 * file of their own (deadline-stdio.conformance.ts) beside the HTTP ones.
 */
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import type { HarnessCase } from '../kit/case-model.js';
import type { HarnessFixture } from '../kit/fixture.js';
import type { HarnessTransport } from '../kit/timing.js';
import { settlesWithin } from './deadline-timing.js';

const POLICIES: readonly FailurePolicy[] = ['fail-open', 'fail-closed'];

/**
 * A persistent backend is spawned by the first call, inside its deadline: the kit's short
 * deadline leaves a loaded machine no room for that, so the slow-backend cases give it more.
 */
const PERSISTENT_SLOW_DEADLINE_MS = 1500;

/** The slow-backend cases of `transport`, one per policy. */
export function slowBackendCases(
  fixture: HarnessFixture,
  transport: HarnessTransport,
  scale: number,
): HarnessCase[] {
  return POLICIES.map((policy) => ({
    name: `AHP-FAIL-002/transport:${transport}/policy:${policy}/slow-backend-settles-by-the-deadline`,
    requirements: ['AHP-FAIL-002'],
    transport,
    policy,
    behaviour: { kind: 'deny', reason: 'late deny' },
    late: true,
    ...(transport === 'stdio-persistent'
      ? { deadline: Math.round(PERSISTENT_SLOW_DEADLINE_MS * scale) }
      : {}),
    checks: [settlesWithin(fixture, 'the deadline', (_run, timeoutMs) => timeoutMs)],
  }));
}
