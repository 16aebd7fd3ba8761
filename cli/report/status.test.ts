import { describe, expect, it } from 'vitest';
import type { RequirementLevel } from '../../protocol/requirements.js';
import type { CaseStatus } from '../runner/case-result.js';
import { caseVerdict, requirementStatus, statusCounts } from './status.js';

const c = (status: CaseStatus, level: RequirementLevel = 'MUST') => ({ status, level });

describe('the status vocabulary', () => {
  it('shows a failed SHOULD case as a warning and a failed MUST case as a failure', () => {
    expect(caseVerdict(c('fail'))).toBe('fail');
    expect(caseVerdict(c('fail', 'MUST NOT'))).toBe('fail');
    expect(caseVerdict(c('fail', 'SHOULD'))).toBe('warn');
    expect(caseVerdict(c('pass', 'SHOULD'))).toBe('pass');
  });

  it('gives a requirement the status of its failing cases: MUST fail, else SHOULD warn', () => {
    expect(requirementStatus([c('pass'), c('fail', 'SHOULD')])).toBe('warn');
    expect(requirementStatus([c('fail', 'SHOULD'), c('fail')])).toBe('fail');
    expect(requirementStatus([c('untested'), c('fail', 'SHOULD')])).toBe('warn');
    expect(requirementStatus([c('known-failure'), c('pass')])).toBe('known-failure');
    expect(requirementStatus([])).toBe('skipped');
  });

  it('counts cases by what they show', () => {
    expect(statusCounts([c('pass'), c('pass'), c('fail', 'SHOULD'), c('untested')])).toBe(
      '2 pass, 1 warn, 1 untested',
    );
  });
});
