// AHP-FAIL-001 over http: every applicable failure class under both policies (fail-class-variants.ts).
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { failureMatrix } from './fail-matrix.js';

harnessCases(useHarnessFixture(), failureMatrix('http'));
