/**
 * AHP-FAIL-002 over stdio, both lifecycles: a backend that answers after the deadline is ended by
 * the deadline, by the policy, in time (the HTTP cases are in deadline.conformance.ts). A file of
 * its own because these deadlines are spent in full, and files run in parallel.
 */
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { slowBackendCases } from './deadline-slow.js';

const fixture = useHarnessFixture({ concurrent: true });
harnessCases(fixture, [
  ...slowBackendCases(fixture, 'stdio-persistent'),
  ...slowBackendCases(fixture, 'stdio-per_event'),
]);
