import { describe, expect, it } from 'vitest';
import type { Report } from '../report/report.js';
import { NOT_RUN_INTERRUPTED } from '../runner/run-conformance.js';
import { interruptedLines } from './interrupted.js';

const report = {
  requirements: [
    { id: 'AHP-FAIL-001', cases: [{ name: 'a', status: 'pass' }] },
    {
      id: 'AHP-FAIL-002',
      cases: [
        { name: 'b', status: 'fail' },
        { name: 'c', status: 'skipped', note: NOT_RUN_INTERRUPTED },
      ],
    },
    // A case under two requirements counts once.
    { id: 'AHPX-DL-001', cases: [{ name: 'c', status: 'skipped', note: NOT_RUN_INTERRUPTED }] },
  ],
} as unknown as Report;

describe('interruptedLines', () => {
  it('replaces the verdict and the report lines: how much finished, and where the partial report is', () => {
    const summary = 'Cases: 1 passed\nVerdict: not conformant.\nReport: /r/report.json';
    expect(interruptedLines(report, summary, ['/r/report.json'])).toEqual([
      'Cases: 1 passed',
      'Verdict: none: the run was interrupted after 2 cases finished; the partial report holds them (the others did not run).',
      'Partial report: /r/report.json',
    ]);
  });

  it('says how to get a report file when none was asked for', () => {
    expect(interruptedLines(report, 'Verdict: conformant.', []).at(-1)).toMatch(
      /--reporter json writes report\.json/,
    );
  });
});
