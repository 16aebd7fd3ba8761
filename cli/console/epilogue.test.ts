import { describe, expect, it } from 'vitest';
import type { Report } from '../report/report.js';
import { flakyLines } from './epilogue.js';

describe('flakyLines', () => {
  it('names each flaky case once, and nothing when none flaked', () => {
    const flaky = {
      name: 'AHP-FAIL-002/x',
      status: 'fail',
      repeat: { runs: 2, passed: 1, failed: 1, verdict: 'flaky' },
    };
    const report = {
      requirements: [
        { id: 'AHP-FAIL-002', cases: [flaky, { name: 'AHP-FAIL-002/y', status: 'pass' }] },
        { id: 'AHPX-DL-001', cases: [flaky] },
      ],
    } as unknown as Report;
    expect(flakyLines(report)).toEqual([
      'Flaky: 1 timing case passed on one run and failed on another; it fails the run (a busy machine: --timeout-scale):',
      '  AHP-FAIL-002/x',
    ]);
    expect(flakyLines({ requirements: [] } as unknown as Report)).toEqual([]);
  });
});
