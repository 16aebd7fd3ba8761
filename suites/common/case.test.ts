import { describe, expect, it } from 'vitest';
import { conformanceCase } from './case.js';

describe('conformanceCase', () => {
  it('refuses a case whose name does not start with its requirement ID', () => {
    expect(() => conformanceCase({ name: 'misnamed', requirements: ['AHP-FAIL-001'] }, () => {})).toThrow(
      /must start with its first requirement ID/,
    );
  });

  it("names an interop case by the authors' set and scenario id", () => {
    // Declaring a test inside a test fails later, for another reason: the name is accepted.
    expect(() =>
      conformanceCase({ name: 'interop/scenarios/x', requirements: ['AHP-EDIT-001'] }, () => {}),
    ).not.toThrow(/must start with its first requirement ID/);
  });

  it('refuses an unknown requirement ID', () => {
    expect(() =>
      conformanceCase({ name: 'AHP-NOPE-999/x', requirements: ['AHP-NOPE-999'] }, () => {}),
    ).toThrow(/unknown requirement AHP-NOPE-999/);
  });
});
