// The policy a subscription declares and what it covers: registrations without an explicit
// failure policy, or observe subscriptions carrying one, are refused (fail-registration-cases.ts);
// an observer's failure never changes the settled decision (fail-observe-cases.ts), and a retried
// notification is the same bytes (observe-retry-cases.ts).
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { observerFailureCases } from './fail-observe-cases.js';
import { observerRetryCases } from './observe-retry-cases.js';
import { registrationRefusalCases } from './fail-registration-cases.js';

harnessCases(useHarnessFixture(), [
  ...registrationRefusalCases(),
  ...observerFailureCases(),
  ...observerRetryCases(),
]);
