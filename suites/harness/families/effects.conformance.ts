// AHP-COMP-001, AHP-EDIT-001 and AHP-DEC-001 for the effects beyond deny and modify, through a chain
// of backends (a mock each): a supplied result (return) kept, voided or replaced; messages and
// injections accumulated in order; ask and deny across the chain; a flow stop with its reason and
// boundary copies; continuations at turn.finish.before within their allowance; nothing of a rejected
// response applied; and the control state each interceptor is sent (effects-cases.ts, data in
// effects-case-data.ts, judged in effects-judge.ts).
import { useHarnessFixture } from '../kit/fixture.js';
import { declareEffectsCases } from './effects-cases.js';

const fixture = useHarnessFixture();
declareEffectsCases(fixture);
