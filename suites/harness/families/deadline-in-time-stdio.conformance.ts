/**
 * AHP-FAIL-002 over stdio, both lifecycles: a reply held past the common client timeouts but
 * inside `timeoutMs` is applied (deadline-in-time.ts; the HTTP cases are in
 * deadline-in-time.conformance.ts). A file of its own: each case waits more than five seconds for
 * its reply, and files run in parallel.
 */
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { inTimeCases } from './deadline-in-time.js';

harnessCases(useHarnessFixture({ concurrent: true }), [
  ...inTimeCases('stdio-persistent'),
  ...inTimeCases('stdio-per_event'),
]);
