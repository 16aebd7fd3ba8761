/** The enclosing call budget (AHPX-BUD-*) over persistent stdio (budget-cases.ts). */
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { budgetCases } from './budget-cases.js';

const fixture = useHarnessFixture({ concurrent: true });
harnessCases(fixture, budgetCases(fixture, 'stdio-persistent'));
