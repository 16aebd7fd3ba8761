import { describe, expect, it } from 'vitest';
import { failedCaseOf, killerOrder, onlyArgs, unitOf, unitOfTestId, unitsOf, unitTestIds } from './units.js';

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

  it('reads the failing case from a MUST or SHOULD failure line and nothing from other lines', () => {
    expect(failedCaseOf('FAIL     AHPX-BUD-006/transport:http/policy:fail-open/x (3129 ms)')).toBe(
      'AHPX-BUD-006/transport:http/policy:fail-open/x',
    );
    expect(failedCaseOf('WARN     AHP-RPC-002/x (12 ms)')).toBe('AHP-RPC-002/x');
    expect(failedCaseOf('PASS     AHP-RPC-002/x (12 ms)')).toBeUndefined();
    expect(failedCaseOf('         - the decision is "continue" but FAIL was expected')).toBeUndefined();
    expect(failedCaseOf('progress: 4/17 cases (23%), 2 failed')).toBeUndefined();
  });
});

describe('the order units run in', () => {
  const reach = { 'AHP-FAIL-001': 500, 'AHPX-BUD-006': 350, 'AHPX-DL-003': 40 };
  it('puts the units that killed mutants of the same file first, then any kills, then the narrowest', () => {
    const kills = [
      { file: 'a.ts', unit: 'AHP-FAIL-001' },
      { file: 'b.ts', unit: 'AHPX-BUD-006' },
      { file: 'b.ts', unit: 'AHPX-BUD-006' },
    ];
    expect(killerOrder(['AHPX-DL-003', 'AHPX-BUD-006', 'AHP-FAIL-001'], 'a.ts', kills, reach)).toEqual([
      'AHP-FAIL-001',
      'AHPX-BUD-006',
      'AHPX-DL-003',
    ]);
    expect(killerOrder(['AHPX-DL-003', 'AHP-FAIL-001'], 'c.ts', [], reach)).toEqual([
      'AHPX-DL-003',
      'AHP-FAIL-001',
    ]);
  });
});

describe('unit test ids', () => {
  const names = ['AHPX-BUD-006/x', 'AHPX-BUD-006/y', 'AHP-FAIL-001/z'];
  it('stay the same for the same cases and judging code, in any order', () => {
    expect(unitTestIds(names, 'j')).toEqual(unitTestIds([...names].reverse(), 'j'));
    expect(unitOfTestId(unitTestIds(names, 'j').get('AHPX-BUD-006')!)).toBe('AHPX-BUD-006');
  });

  it("change for a unit that gained a case, and only that unit's", () => {
    const before = unitTestIds(names, 'j');
    const after = unitTestIds([...names, 'AHP-FAIL-001/w'], 'j');
    expect(after.get('AHP-FAIL-001')).not.toBe(before.get('AHP-FAIL-001'));
    expect(after.get('AHPX-BUD-006')).toBe(before.get('AHPX-BUD-006'));
  });

  it('change for every unit when the judging code changed', () => {
    const before = unitTestIds(names, 'j');
    const after = unitTestIds(names, 'k');
    expect(after.get('AHPX-BUD-006')).not.toBe(before.get('AHPX-BUD-006'));
  });
});
