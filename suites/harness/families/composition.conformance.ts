// AHP-COMP-001: several interceptors in one registration, each on a mock backend of its own, run
// one at a time in registration order until a deny, a flow stop, an interruption or a
// fail-closed failure ends decision-making (composition-cases.ts, run by chain-cases.ts).
import { useHarnessFixture } from '../kit/fixture.js';
import { declareChainCases } from './chain-cases.js';
import { compositionCases } from './composition-cases.js';

const fixture = useHarnessFixture();
declareChainCases(fixture, compositionCases());
