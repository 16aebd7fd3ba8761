import type { RequirementLevel } from './requirement-types.js';

/** One normative sentence of the seed and the requirement IDs that stand for it. */
export interface SeedSentence {
  /** Seed section heading and paragraph number (blank-line separated, counted within the section). */
  section: string;
  paragraph: number;
  /** A short locator quote of the sentence. */
  anchor: string;
  /** The RFC 2119 keyword written in the sentence, or null when the obligation is stated plainly. */
  keyword: RequirementLevel | null;
  /** The strength we read it at. */
  level: RequirementLevel;
  /** Requirement IDs covering it; empty only for guidance that binds no implementation. */
  ids: readonly string[];
  note?: string;
}

const S = (
  section: string,
  paragraph: number,
  anchor: string,
  keyword: RequirementLevel | null,
  level: RequirementLevel,
  ids: string[],
  note?: string,
): SeedSentence => ({ section, paragraph, anchor, keyword, level, ids, ...(note ? { note } : {}) });

const FC = 'Failure classes';
const FP = 'Failure policy';
const SD = 'Synthetic denial';
const DL = 'Deadlines';
const DR = 'Duplicate delivery and retries';
const EB = 'Enclosing operation budgets and shutdown';

/**
 * Every normative sentence of the seed, in order, mapped to the catalogue. Sentences that only
 * describe (no obligation on an implementation) are left out. The catalogue test checks that
 * each MUST / MUST NOT entry maps to catalogue IDs of a compatible level.
 */
export const SEED_COVERAGE: readonly SeedSentence[] = [
  S(FC, 1, 'The following are operational failures', null, 'MUST', ['AHPX-FAIL-007', 'AHP-FAIL-001']),
  S(FC, 2, 'An explicit deny is not an operational failure', null, 'MUST NOT', ['AHPX-FAIL-008']),
  S(FP, 1, 'AHP-FAIL-001 — MUST', 'MUST', 'MUST', ['AHP-FAIL-001']),
  S(FP, 2, 'Each intercept subscription MUST explicitly configure one of', 'MUST', 'MUST', [
    'AHP-FAIL-001',
    'AHPX-FAIL-003',
  ]),
  S(FP, 3, 'fail-open: Continue unchanged', null, 'MUST', ['AHP-FAIL-001']),
  S(FP, 3, 'fail-closed: Deny the operation', null, 'MUST', ['AHP-FAIL-001']),
  S(FP, 3, 'Authentication failures follow the same configured policy', null, 'MUST', ['AHPX-FAIL-004']),
  S(FP, 3, 'does not permit unauthenticated fallback', null, 'MUST NOT', ['AHPX-FAIL-005']),
  S(FP, 3, 'There is no implicit default', null, 'MUST', ['AHPX-FAIL-003']),
  S(FP, 3, 'failure never changes the settled decision', null, 'MUST NOT', ['AHPX-FAIL-006']),
  S(FP, 3, 'They MUST NOT specify failurePolicy', 'MUST NOT', 'MUST NOT', ['AHPX-FAIL-006']),
  S(SD, 1, 'SHOULD present a generic local reason', 'SHOULD', 'SHOULD', ['AHPX-SYN-002']),
  S(SD, 1, 'SHOULD NOT expose network details', 'SHOULD NOT', 'SHOULD NOT', ['AHPX-SYN-003']),
  S(SD, 1, 'MUST be distinguishable in local audit records', 'MUST', 'MUST', ['AHPX-SYN-001']),
  S(DL, 1, 'AHP-FAIL-002 — MUST', 'MUST', 'MUST', ['AHP-FAIL-002']),
  S(DL, 2, 'MUST specify timeoutMs as a positive integer', 'MUST', 'MUST', ['AHP-FAIL-002']),
  S(DL, 2, 'A harness MUST enforce the timeout across', 'MUST', 'MUST', ['AHPX-DL-001']),
  S(DL, 2, 'SHOULD support values from 100 ms', 'SHOULD', 'SHOULD', ['AHPX-DL-003']),
  S(
    DL,
    2,
    'Deployments SHOULD choose the smallest value',
    'SHOULD',
    'SHOULD',
    [],
    'guidance for deployments, not implementations',
  ),
  S(DL, 2, 'MUST ignore any later response', 'MUST', 'MUST', ['AHPX-DL-002']),
  S(DL, 2, 'Interruption immediately ends pending decision requests', null, 'MUST', ['AHPX-INT-001']),
  S(DL, 2, 'MUST NOT revive interrupted work', 'MUST NOT', 'MUST NOT', ['AHPX-INT-002']),
  S(DL, 2, 'MUST recheck cancellation and the original deadline', 'MUST', 'MUST', ['AHPX-INT-003']),
  S(DR, 1, 'AHP-CORE-004 — MUST', 'MUST', 'MUST', ['AHP-CORE-004']),
  S(
    DR,
    2,
    'only while the original deadline remains active',
    'MAY',
    'MUST NOT',
    ['AHPX-RETRY-002', 'AHP-FAIL-002'],
    'the permission is bounded: no retry after the original deadline',
  ),
  S(DR, 2, 'Every retry MUST reuse the same event ID', 'MUST', 'MUST', ['AHP-CORE-004']),
  S(DR, 2, 'A backend MAY provide idempotency support', 'MAY', 'MAY', ['AHP-CORE-004']),
  S(DR, 2, 'An observer transport MAY retry a failed notification', 'MAY', 'MAY', ['AHPX-RETRY-003']),
  S(DR, 2, 'Retries MUST preserve the exact subscription payload', 'MUST', 'MUST', ['AHPX-RETRY-003']),
  S(DR, 2, 'MUST NOT retry an explicit denial', 'MUST NOT', 'MUST NOT', ['AHPX-RETRY-001']),
  S(EB, 1, 'A host MAY impose a deadline on the entire hook call', 'MAY', 'MAY', ['AHPX-BUD-006']),
  S(EB, 1, 'consume that same remaining call budget', null, 'MUST', ['AHPX-BUD-006']),
  S(EB, 1, 'MUST NOT reset or extend the enclosing deadline', 'MUST NOT', 'MUST NOT', ['AHPX-BUD-001']),
  S(EB, 1, 'A shorter registered or phase-specific timeout still applies', null, 'MUST', ['AHPX-BUD-002']),
  S(EB, 2, 'Budget expiry stops new work', null, 'MUST', ['AHPX-BUD-006']),
  S(EB, 2, 'distinguish expiry from explicit cancellation', null, 'MUST', ['AHPX-BUD-003']),
  S(EB, 2, 'MUST NOT use cleanup as permission', 'MUST NOT', 'MUST NOT', ['AHPX-BUD-005']),
  S(EB, 2, 'does not cancel unrelated callers', null, 'MUST', ['AHPX-BUD-007']),
  S(EB, 2, 'MUST NOT be represented as permission to execute', 'MUST NOT', 'MUST NOT', ['AHPX-BUD-004']),
  S(EB, 3, 'Closing a client stops admission of new calls', null, 'MUST', ['AHPX-SHUT-001']),
  S(EB, 3, 'safely cancels or retires its active owned I/O', null, 'MUST', ['AHPX-SHUT-005']),
  S(EB, 3, 'bounded process reaping before shutdown completes', null, 'MUST', ['AHPX-SHUT-002']),
  S(EB, 3, 'remain caller-owned', null, 'MUST', ['AHPX-SHUT-004']),
  S(EB, 3, 'Repeated shutdown is safe', null, 'MUST', ['AHPX-SHUT-003']),
  S(EB, 3, 'calls after shutdown fail locally', null, 'MUST', ['AHPX-SHUT-001']),
  S(EB, 3, 'shutdown does not implicitly wait', null, 'MUST NOT', ['AHPX-SHUT-005']),
];
