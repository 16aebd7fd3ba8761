// The protocol authors' interop scenarios, read at run time from the path `harness --interop`
// gives (a checkout's interop folder, or one of its files), each run as a case of its own
// through the driver (declare.ts).
import { inject } from 'vitest';
import { useHarnessFixture } from '../harness/kit/fixture.js';
import { declareInteropCases } from './declare.js';
import { INTEROP_PATH_KEY } from './provided.js';
import { loadInterop } from './load.js';

const path: string | undefined = inject(INTEROP_PATH_KEY);
if (path === undefined) {
  throw new Error(
    'the interop cases need the scenario path: run them through `ahp-conformance harness --interop <path>`',
  );
}
declareInteropCases(useHarnessFixture(), await loadInterop(path));
