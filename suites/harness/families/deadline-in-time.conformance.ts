/**
 * AHP-FAIL-002 over HTTP: a reply held past the common client timeouts but inside `timeoutMs` is
 * applied (deadline-in-time.ts). A file of its own: each case waits more than ten seconds for its
 * reply, and files run in parallel.
 */
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { inTimeCases } from './deadline-in-time.js';

harnessCases(useHarnessFixture({ concurrent: true }), inTimeCases('http'));
