import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../../cli/runner/case-result.js';
import { profileOutcome } from './profile-outcome.js';

const result = (name: string, status: CaseResult['status'], extra: Partial<CaseResult> = {}): CaseResult => ({
  name,
  file: 'suites/x.conformance.ts',
  requirements: ['AHP-FAIL-001'],
  level: 'MUST',
  transports: [],
  profiles: [],
  status,
  durationMs: 1,
  errors: [],
  ...extra,
});

describe('profileOutcome', () => {
  it('lists an untested case with its reason and still exits 0', () => {
    const out = profileOutcome(
      [
        result('a', 'pass'),
        result('b', 'untested', { note: 'the driver cannot hand over a token provider' }),
      ],
      [],
    );
    expect(out.exitCode).toBe(0);
    expect(out.lines).toEqual([
      'cases 2, failed 0, not judged 1, run errors 0',
      '  untested b: the driver cannot hand over a token provider',
    ]);
  });

  it('exits 1 on a failure or a run error, naming them', () => {
    expect(profileOutcome([result('c', 'fail', { errors: ['expected deny'] })], []).lines).toContain(
      '  fail c: expected deny',
    );
    expect(profileOutcome([result('c', 'fail')], []).exitCode).toBe(1);
    expect(profileOutcome([], ['boom']).exitCode).toBe(1);
  });
});
