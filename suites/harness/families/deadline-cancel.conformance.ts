/**
 * Interruption (AHPX-INT-001, AHPX-INT-002) over HTTP: cancelling a call while its request is
 * pending ends it at once, overrides fail-open, and a reply after the cancellation does not revive
 * it (deadline-cancel-cases.ts; the stdio cases are in deadline-cancel-persistent and
 * deadline-cancel-per_event); cancelling it while it owns its observation overrides the chain's
 * approval (owned-observation-cases.ts, HTTP only).
 */
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { cancelCases } from './deadline-cancel-cases.js';
import { ownedObservationCancelCases } from './owned-observation-cases.js';

const fixture = useHarnessFixture({ concurrent: true });
harnessCases(fixture, [...cancelCases(fixture, 'http'), ...ownedObservationCancelCases()]);
