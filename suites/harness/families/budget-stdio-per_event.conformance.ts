/** The enclosing call budget (AHPX-BUD-*) over per_event stdio (budget-cases.ts). */
import { inject } from 'vitest';
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { DEFAULT_SETTINGS, SETTINGS_KEY } from '../kit/provided.js';
import { budgetCases } from './budget-cases.js';

const fixture = useHarnessFixture({ concurrent: true });
const scale = (inject(SETTINGS_KEY) ?? DEFAULT_SETTINGS).timeoutScale;

harnessCases(fixture, budgetCases(fixture, 'stdio-per_event', scale));
