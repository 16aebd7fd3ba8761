import { describe, expect, it } from 'vitest';
import { failedCaseOf, onlyArgs, unitOf, unitsOf } from './units.js';

describe('mutation units', () => {
  it('puts a case in the unit of the requirement ID its name starts with', () => {
    expect(unitOf('AHP-FAIL-001/transport:http/policy:fail-closed/class:malformed')).toBe('AHP-FAIL-001');
    expect(unitOf('AHPX-BUD-006')).toBe('AHPX-BUD-006');
  });

  it('lists each unit once, in the order first met', () => {
    expect(unitsOf(['AHPX-BUD-006/a', 'AHPX-BUD-001/b', 'AHPX-BUD-006/c'])).toEqual([
      'AHPX-BUD-006',
      'AHPX-BUD-001',
    ]);
  });

  it("selects a unit's cases and no other unit's (a prefix ID is not a unit of its own)", () => {
    expect(onlyArgs(['AHP-CORE-003', 'AHPX-BUD-001'])).toEqual([
      '--only',
      'AHP-CORE-003/**',
      '--only',
      'AHPX-BUD-001/**',
    ]);
  });

  it('reads the failing case from a MUST failure line and nothing from other lines', () => {
    expect(failedCaseOf('FAIL     AHPX-BUD-006/transport:http/policy:fail-open/x (3129 ms)')).toBe(
      'AHPX-BUD-006/transport:http/policy:fail-open/x',
    );
    expect(failedCaseOf('WARN     AHP-RPC-002/x (12 ms)')).toBeUndefined();
    expect(failedCaseOf('         - the decision is "continue" but FAIL was expected')).toBeUndefined();
    expect(failedCaseOf('progress: 4/17 cases (23%), 2 failed')).toBeUndefined();
  });
});
