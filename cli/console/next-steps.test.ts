import { describe, expect, it } from 'vitest';
import type { Report } from '../report/report.js';
import { nextSteps, shellWord } from './next-steps.js';

const report = {
  seed: 1234,
  requirements: [
    { id: 'AHP-FAIL-001', cases: [{ name: 'AHP-FAIL-001/transport:http/ok', status: 'pass' }] },
    { id: 'AHP-FAIL-002', cases: [{ name: 'AHP-FAIL-002/transport:http/policy:fail-open', status: 'fail' }] },
  ],
} as unknown as Report;

describe('nextSteps', () => {
  it('says nothing after a run that passed', () => {
    expect(nextSteps(report, { command: 'harness', args: [], files: [], failed: false })).toEqual([]);
  });

  it('gives the report, the replay with the seed, and a rerun of the first failing case', () => {
    const lines = nextSteps(report, {
      command: 'harness',
      args: ['--seed', '9', '--only', 'A', 'B', '--timeout-scale=2', '--', 'node', 'my driver.mjs'],
      files: ['/tmp/out/report.json'],
      failed: true,
    });
    expect(lines).toEqual([
      '',
      'Next:',
      '  read the report:     /tmp/out/report.json',
      "  replay this run:     npx ahp-conformance harness --timeout-scale=2 --seed 1234 -- node 'my driver.mjs'",
      "  rerun one failure:   npx ahp-conformance harness --timeout-scale=2 --only AHP-FAIL-002/transport:http/policy:fail-open --seed 1234 -- node 'my driver.mjs'",
    ]);
  });

  it('quotes words a shell would split or expand', () => {
    expect(shellWord('AHPX-BUD-*')).toBe("'AHPX-BUD-*'");
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
  });
});
