// The policy a subscription declares and what it covers: registrations without an explicit
// failure policy, or observe subscriptions carrying one, are refused (fail-registration-cases.ts);
// an observer's failure never changes the settled decision (fail-observe-cases.ts), and a retried
// notification is the same bytes (observe-retry-cases.ts). Registration documents without the
// snapshot version or hooks are refused, and events go only where a subscription matches them,
// in its mode (registration-dispatch-cases.ts; the mode cases on several backends through
// chain-cases.ts). A backend id named twice, an intercepted observation-only event and a managed
// scope without disableable: false are refused; a managed subscription or an observe subscription
// to an event the harness may not raise is refused or served (registration-load-cases.ts). Only bearer and oauth are portable endpoint authentication, and a bearer
// token travels only in the Authorization header (auth-binding-cases.ts).
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { bearerPlacementCases, declareNonPortableAuthCases } from './auth-binding-cases.js';
import { observerFailureCases } from './fail-observe-cases.js';
import { observerRetryCases } from './observe-retry-cases.js';
import { registrationRefusalCases } from './fail-registration-cases.js';
import { declareChainCases } from './chain-cases.js';
import { declareLoadCases } from './registration-load-cases.js';
import {
  declareDispatchCases,
  declareDocumentShapeCases,
  dispatchModeCases,
} from './registration-dispatch-cases.js';

const fixture = useHarnessFixture();
harnessCases(fixture, [
  ...registrationRefusalCases(),
  ...observerFailureCases(),
  ...observerRetryCases(),
  ...bearerPlacementCases(),
]);

declareDocumentShapeCases(fixture);
declareDispatchCases(fixture);
declareChainCases(fixture, dispatchModeCases());
declareNonPortableAuthCases(fixture);
declareLoadCases(fixture);
