// AHP-FAIL-001 over stdio-per_event: every applicable failure class under both policies (fail-class-variants.ts).
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { failureMatrix } from './fail-matrix.js';

harnessCases(useHarnessFixture({ concurrent: true }), failureMatrix('stdio-per_event'));
