/**
 * AHP-FAIL-002 over stdio, both lifecycles: a backend that answers after the deadline is ended by
 * the deadline, by the policy, in time (the HTTP cases are in deadline.conformance.ts). A file of
 * its own because these deadlines are spent in full, and files run in parallel.
 */
import { inject } from 'vitest';
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { DEFAULT_SETTINGS, SETTINGS_KEY } from '../kit/provided.js';
import { slowBackendCases } from './deadline-slow.js';

const fixture = useHarnessFixture({ concurrent: true });
const scale = (inject(SETTINGS_KEY) ?? DEFAULT_SETTINGS).timeoutScale;

harnessCases(fixture, [
  ...slowBackendCases(fixture, 'stdio-persistent', scale),
  ...slowBackendCases(fixture, 'stdio-per_event', scale),
]);
