/**
 * AHPX-DL-002 on a persistent stdio backend: a reply that lands after the deadline changes nothing,
 * for that call or the next one pending on the same pipe (deadline-late.ts has the timeline; the
 * HTTP cases are in deadline.conformance.ts). A file of its own: each case spends a long deadline
 * in full, and files run in parallel.
 */
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { lateReplyCases } from './deadline-late.js';

const fixture = useHarnessFixture({ concurrent: true });
harnessCases(fixture, lateReplyCases(fixture, 'stdio-persistent'));
