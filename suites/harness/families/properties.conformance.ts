/**
 * The harness suite's properties (fast-check; `--seed` and `--runs` from the suite settings; a
 * failure prints its replay token): chains of subscriptions settle as the seed's rules predict,
 * retries resend identical bytes inside the deadline, corrupt streams never continue under
 * fail-closed. One file, one driver: each run is a real configure + invoke.
 */
import { useHarnessFixture } from '../kit/fixture.js';
import { declareCorruptProperty } from './properties-corrupt.js';
import { declareDecisionProperty } from './properties-decision.js';
import { declareRetryProperty } from './properties-retry.js';

const fixture = useHarnessFixture();
declareDecisionProperty(fixture);
declareRetryProperty(fixture);
declareCorruptProperty(fixture);
