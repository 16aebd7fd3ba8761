// AHP-FAIL-001 over stdio-per_event: every applicable failure class under both policies (fail-class-variants.ts),
// and AHP-STDIO-001's per_event lifecycle: one message, then EOF, on the intercept and observe paths.
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { failureMatrix } from './fail-matrix.js';
import { perEventEofCases } from './per-event-eof-cases.js';

harnessCases(useHarnessFixture({ concurrent: true }), [
  ...perEventEofCases(),
  ...failureMatrix('stdio-per_event'),
]);
