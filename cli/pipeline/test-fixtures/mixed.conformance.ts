// A conformance file with one case of each outcome, for the pipeline tests of cli/: never part
// of a real run. The timing case fails on every second run (counted in a file the test provides),
// so `--repeat` sees a flaky case deterministically.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, inject } from 'vitest';
import { conformanceCase } from '../../../suites/common/case.js';

const counterDir = (inject as (key: string) => unknown)('pipelineCounterDir') as string | undefined;

conformanceCase({ name: 'AHP-FAIL-001/fixture/passes', requirements: ['AHP-FAIL-001'] }, (ctx) => {
  ctx.evidence({ frames: ['{"jsonrpc":"2.0"}'] });
});

conformanceCase({ name: 'AHP-FAIL-002/fixture/deadline-flaky', requirements: ['AHP-FAIL-002'] }, () => {
  if (counterDir === undefined) return;
  const file = join(counterDir, 'runs');
  let count: number;
  try {
    count = Number(readFileSync(file, 'utf8'));
  } catch {
    count = 0;
  }
  writeFileSync(file, String(count + 1));
  if ((count + 1) % 2 === 0) throw new Error(`missed the deadline on run ${count + 1}`);
});

conformanceCase({ name: 'AHP-CORE-004/fixture/fails', requirements: ['AHP-CORE-004'] }, (ctx) => {
  ctx.evidence({
    transcript: [
      { dir: 'out', text: '{"id":"evt_1"}' },
      { dir: 'in', text: '{"id":"evt_2"}' },
    ],
  });
  expect('evt_2').toBe('evt_1');
});

conformanceCase({ name: 'AHPX-SYN-002/fixture/should-fails', requirements: ['AHPX-SYN-002'] }, () => {
  throw new Error('the reason leaks the backend URL');
});

conformanceCase({ name: 'AHP-HTTP-001/fixture/untested', requirements: ['AHP-HTTP-001'] }, (ctx) => {
  ctx.untested('the target has no HTTP binding');
});
