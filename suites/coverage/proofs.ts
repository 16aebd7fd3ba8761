/**
 * What the twins cannot say about a requirement: the in-test negatives that prove its check can
 * fail (a unit test that feeds the check a misbehaving target), keyed by requirement ID; and the
 * requirements no case checks, read from the catalogue rows' `exclusion`, with the reason the
 * report and `list --coverage` print.
 */
import { REQUIREMENTS, type RequirementExclusion } from '../../protocol/requirements.js';

/** A test that shows a check fails a target that breaks the requirement. */
export interface NegativeProof {
  /** The test file, relative to the package root. */
  file: string;
  /** What it shows, in one line. */
  shows: string;
}

/** Why no case checks a requirement: the catalogue row's `exclusion`. */
export type Exclusion = RequirementExclusion;

const negative = (file: string, shows: string): NegativeProof => ({ file, shows });

/** In-test negatives by requirement ID. */
export const NEGATIVE_PROOFS: Readonly<Record<string, readonly NegativeProof[]>> = {
  'AHP-CORE-002': [
    negative(
      'suites/harness/families/core-claim-rules.test.ts',
      'a claim without a binding, or with a binding no transport feature backs, is a problem',
    ),
  ],
  'AHP-EDIT-001': [
    negative(
      'suites/harness/families/edit-case-data.test.ts',
      'a chain whose later interceptor saw the original input, or whose rejected response was applied in part, fails the check',
    ),
  ],
  'AHPX-SHUT-004': [
    negative(
      'suites/harness/in-process/ownership-check.test.ts',
      'a harness that closes the transport and token provider it was lent fails the check',
    ),
  ],
};

/** Requirements no case checks, by ID: the catalogue rows that carry an exclusion. */
export const EXCLUSIONS: Readonly<Record<string, Exclusion>> = Object.fromEntries(
  REQUIREMENTS.flatMap((r) => (r.exclusion ? [[r.id, r.exclusion]] : [])),
);
