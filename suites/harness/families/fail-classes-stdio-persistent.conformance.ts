// AHP-FAIL-001 over stdio-persistent: every applicable failure class under both policies (fail-class-variants.ts).
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { failureMatrix } from './fail-matrix.js';

// Consecutive cases with the same registration keep the harness (and its backend process).
harnessCases(useHarnessFixture({ reuseConfigured: true }), failureMatrix('stdio-persistent'));
