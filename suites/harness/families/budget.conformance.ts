/**
 * The enclosing call budget (AHPX-BUD-*) over HTTP (budget-cases.ts; the stdio cases are in
 * budget-stdio-persistent and budget-stdio-per_event, as files run in parallel), and a budget
 * that runs out while the call owns its observation (owned-observation-cases.ts, HTTP only).
 */
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { budgetCases } from './budget-cases.js';
import { ownedObservationBudgetCases } from './owned-observation-cases.js';

const fixture = useHarnessFixture({ concurrent: true });
harnessCases(fixture, [...budgetCases(fixture, 'http'), ...ownedObservationBudgetCases()]);
