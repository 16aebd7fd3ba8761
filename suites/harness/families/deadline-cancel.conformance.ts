/**
 * Interruption (AHPX-INT-001, AHPX-INT-002) over HTTP: cancelling a call while its request is
 * pending ends it at once, overrides fail-open, and a reply after the cancellation does not revive
 * it (deadline-cancel-cases.ts; the stdio cases are in deadline-cancel-persistent and
 * deadline-cancel-per_event).
 */
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { cancelCases } from './deadline-cancel-cases.js';

const fixture = useHarnessFixture({ concurrent: true });
harnessCases(fixture, cancelCases(fixture, 'http'));
