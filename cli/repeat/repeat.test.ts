import { describe, expect, it } from 'vitest';
import type { CaseResult, CaseStatus } from '../runner/case-result.js';
import { isTimingCase, mergeRepeats, repeatVerdict } from './repeat.js';

function result(name: string, status: CaseStatus, durationMs = 10): CaseResult {
  return {
    name,
    file: 'suites/harness/x.conformance.ts',
    requirements: [name.split('/')[0] as string],
    level: 'MUST',
    transports: ['http'],
    profiles: [],
    status,
    durationMs,
    errors: status === 'fail' ? [`${name} failed`] : [],
  };
}

describe('isTimingCase', () => {
  it('recognises deadline, budget and interruption requirements and timing words in names', () => {
    expect(isTimingCase({ name: 'AHP-FAIL-002/x', requirements: ['AHP-FAIL-002'] })).toBe(true);
    expect(isTimingCase({ name: 'AHPX-BUD-003/x', requirements: ['AHPX-BUD-003'] })).toBe(true);
    expect(isTimingCase({ name: 'AHP-FAIL-001/http/late-reply', requirements: ['AHP-FAIL-001'] })).toBe(true);
    expect(isTimingCase({ name: 'AHP-RPC-001/translate-template', requirements: ['AHP-RPC-001'] })).toBe(
      false,
    );
    expect(isTimingCase({ name: 'AHP-REG-001/no-policy', requirements: ['AHP-REG-001'] })).toBe(false);
  });
});

describe('repeatVerdict', () => {
  it('is pass, fail or flaky over the runs that reached a result', () => {
    expect(repeatVerdict(['pass', 'pass'])).toEqual({ runs: 2, passed: 2, failed: 0, verdict: 'pass' });
    expect(repeatVerdict(['fail', 'fail', 'fail'])?.verdict).toBe('fail');
    expect(repeatVerdict(['pass', 'fail', 'untested'])).toEqual({
      runs: 3,
      passed: 1,
      failed: 1,
      verdict: 'flaky',
    });
    expect(repeatVerdict(['untested', 'skipped'])).toBeUndefined();
  });
});

describe('mergeRepeats', () => {
  it('fails a flaky case, keeps the first failure and leaves unrepeated cases alone', () => {
    const first = [
      result('AHP-FAIL-002/a', 'pass', 5),
      result('AHP-FAIL-002/b', 'pass'),
      result('AHP-REG-001/c', 'pass'),
    ];
    const merged = mergeRepeats(first, [
      [result('AHP-FAIL-002/a', 'fail', 30), result('AHP-FAIL-002/b', 'pass')],
      [result('AHP-FAIL-002/a', 'pass', 7), result('AHP-FAIL-002/b', 'pass')],
    ]);
    expect(merged[0]).toMatchObject({
      status: 'fail',
      errors: ['AHP-FAIL-002/a failed'],
      durationMs: 30,
      note: 'flaky: passed 2 of 3 runs',
      repeat: { runs: 3, passed: 2, failed: 1, verdict: 'flaky' },
    });
    expect(merged[1]).toMatchObject({ status: 'pass', errors: [], repeat: { verdict: 'pass' } });
    expect(merged[2]).toEqual(first[2]);
  });

  it('ignores a case an extra run did not select (reported skipped there)', () => {
    const first = [result('AHP-REG-001/c', 'pass')];
    expect(mergeRepeats(first, [[result('AHP-REG-001/c', 'skipped')]])).toEqual(first);
  });

  it('keeps a case that failed every time failed, with its verdict', () => {
    const merged = mergeRepeats([result('AHP-FAIL-002/a', 'fail')], [[result('AHP-FAIL-002/a', 'fail')]]);
    expect(merged[0]).toMatchObject({ status: 'fail', repeat: { verdict: 'fail', runs: 2 } });
  });
});
