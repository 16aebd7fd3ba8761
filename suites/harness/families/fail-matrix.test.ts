import { describe, expect, it } from 'vitest';
import { FAILURE_CLASSES } from '../../../protocol/failure-classes.js';
import { deriveExpectation, waitsForDeadline } from '../kit/expectation.js';
import { HARNESS_TRANSPORTS } from '../kit/timing.js';
import { failureMatrix } from './fail-matrix.js';

const APPLIES = {
  'stdio-persistent': FAILURE_CLASSES.filter((c) => !['connection', 'auth', 'http-status'].includes(c)),
  'stdio-per_event': FAILURE_CLASSES.filter(
    (c) => !['connection', 'auth', 'http-status', 'late-response'].includes(c),
  ),
  http: FAILURE_CLASSES.filter((c) => c !== 'process'),
};

describe('failureMatrix', () => {
  it.each(HARNESS_TRANSPORTS)('covers every applicable class under both policies over %s', (transport) => {
    const cases = failureMatrix(transport);
    for (const policy of ['fail-open', 'fail-closed'] as const) {
      const covered = new Set(
        cases.filter((c) => c.policy === policy).flatMap((c) => /class:([a-z-]+)/.exec(c.name)?.[1] ?? []),
      );
      expect([...covered].sort()).toEqual([...APPLIES[transport]].sort());
      expect(
        cases.some((c) => c.policy === policy && c.name.endsWith('explicit-deny-is-not-a-failure')),
      ).toBe(true);
    }
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });

  it('every step derives the failure of its class: deny under fail-closed, continue under fail-open', () => {
    for (const transport of HARNESS_TRANSPORTS) {
      for (const c of failureMatrix(transport)) {
        const failureClass = /class:([a-z-]+)/.exec(c.name)?.[1];
        for (const step of [c, ...(c.then ?? [])]) {
          const e = deriveExpectation(c, step, 400);
          if (failureClass === undefined) continue;
          expect(e.audit.classes, `${c.name} ${step.label ?? ''}`).toContain(failureClass);
          expect(e.decision).toBe(c.policy === 'fail-closed' ? 'deny' : 'continue');
          expect(e.synthetic).toBe(c.policy === 'fail-closed');
        }
      }
    }
  });

  it('a case whose every call may end at the deadline has the short one: waiting out a long one shows nothing', () => {
    for (const transport of HARNESS_TRANSPORTS) {
      for (const c of failureMatrix(transport)) {
        const steps = [c, ...(c.then ?? [])];
        const mayWait = steps.every((step) =>
          deriveExpectation(c, step, 400).audit.classes?.includes('deadline-exceeded'),
        );
        if (mayWait) expect(c.deadline === 'short' || waitsForDeadline(c), c.name).toBe(true);
      }
    }
  });

  it('names start with the requirement they assert', () => {
    for (const c of HARNESS_TRANSPORTS.flatMap(failureMatrix))
      expect(c.name.startsWith(c.requirements[0] ?? '?')).toBe(true);
  });
});

describe('an unset token variable', () => {
  const tokenCases = failureMatrix('http').filter((c) => c.auth === 'missing-token');

  it('judges the policy apart from fallback delivery, which only fail-open can show', () => {
    expect(tokenCases.map((c) => [c.name, c.requirements])).toEqual([
      [
        'AHP-FAIL-001/transport:http/policy:fail-open/class:auth/token-variable-missing',
        ['AHP-FAIL-001', 'AHPX-FAIL-007', 'AHPX-FAIL-004'],
      ],
      [
        'AHPX-FAIL-005/transport:http/policy:fail-open/class:auth/token-variable-missing/nothing-sent-without-credentials',
        ['AHPX-FAIL-005'],
      ],
      [
        'AHP-FAIL-001/transport:http/policy:fail-closed/class:auth/token-variable-missing',
        ['AHP-FAIL-001', 'AHPX-FAIL-007', 'AHPX-FAIL-004'],
      ],
    ]);
  });

  it('expects nothing delivered in each', () => {
    for (const c of tokenCases) expect(deriveExpectation(c, c, 1000).wire).toBe('none');
  });
});
