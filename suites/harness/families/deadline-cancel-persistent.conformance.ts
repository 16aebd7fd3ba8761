/** Interruption (AHPX-INT-001, AHPX-INT-002) over persistent stdio (deadline-cancel-cases.ts). */
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { cancelCases } from './deadline-cancel-cases.js';

const fixture = useHarnessFixture({ concurrent: true });
harnessCases(fixture, cancelCases(fixture, 'stdio-persistent'));
