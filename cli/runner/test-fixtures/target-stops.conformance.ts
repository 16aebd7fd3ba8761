// For the runner's tests of cli/, never part of a real run: the target stops during the first
// case, once the other file's long case is under way.
import { conformanceCase } from '../../../suites/common/case.js';

conformanceCase(
  { name: 'AHP-FAIL-001/fixture/target-stops', requirements: ['AHP-FAIL-001'] },
  async (ctx) => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    ctx.targetStopped({ message: 'the fixture target stopped answering', stderrTail: [] });
  },
);
