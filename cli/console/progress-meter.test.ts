import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../runner/case-result.js';
import { clockTime, countsAsDone, ProgressMeter } from './progress-meter.js';

const result = (name: string, status: CaseResult['status'] = 'pass', level: CaseResult['level'] = 'MUST') =>
  ({ name, status, level, note: undefined }) as unknown as CaseResult;

describe('ProgressMeter', () => {
  it('counts cases done of a planned total, failures, and the time left from the pace so far', () => {
    const meter = new ProgressMeter(
      0,
      new Map([
        ['a', 1000],
        ['b', 1000],
        ['c', 2000],
      ]),
    );
    meter.plan(['a', 'b', 'c']);
    expect(meter.status(1_000)).toBe('0/3 cases (0%), 0 failed, 0:01 elapsed, estimating time left');
    meter.record(result('a'));
    meter.record(result('b', 'fail'));
    // Half the recorded work in 10 s: about 10 s left.
    expect(meter.status(10_000)).toBe('2/3 cases (66%), 1 failed, 0:10 elapsed, about 0:10 left');
  });

  it('marks an estimated total with ~ until every file is collected, projecting from the files collected', () => {
    const meter = new ProgressMeter(0);
    meter.estimate(223);
    meter.record(result('x'));
    expect(meter.status(0)).toMatch(/^1\/~223 cases/);
    // 2 of 20 files declare 40 cases: about 400 in all; 2 declaring 10, fewer than the estimate.
    meter.collecting(20, 2, 40);
    expect(meter.status(0)).toMatch(/^1\/~400 cases/);
    meter.collecting(20, 2, 10);
    expect(meter.status(0)).toMatch(/^1\/~223 cases/);
    meter.collecting(20, 20, 351);
    expect(meter.status(0)).toMatch(/^1\/351 cases/);
  });

  it('counts SHOULD failures as warnings, not failures, and skips cases a selection left out', () => {
    const meter = new ProgressMeter(0);
    meter.record(result('w', 'fail', 'SHOULD'));
    meter.record({ ...result('s', 'skipped') });
    expect(meter.finished).toBe(1);
    expect(meter.status(0)).toContain('0 failed');
    expect(countsAsDone({ status: 'skipped', note: 'not judged: the driver exited' })).toBe(true);
  });

  it('writes times as m:ss', () => {
    expect(clockTime(0)).toBe('0:00');
    expect(clockTime(61_400)).toBe('1:01');
    expect(clockTime(3_723_000)).toBe('1:02:03');
  });
});
