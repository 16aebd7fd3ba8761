/** Interruption (AHPX-INT-001, AHPX-INT-002) over persistent stdio (deadline-cancel-cases.ts). */
import { inject } from 'vitest';
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { DEFAULT_SETTINGS, SETTINGS_KEY } from '../kit/provided.js';
import { cancelCases } from './deadline-cancel-cases.js';

const fixture = useHarnessFixture({ concurrent: true });
const scale = (inject(SETTINGS_KEY) ?? DEFAULT_SETTINGS).timeoutScale;

harnessCases(fixture, cancelCases(fixture, 'stdio-persistent', scale));
