/**
 * What a step's findings come to in its case: which ones the case judges (a cross-cutting rule's
 * only in the cases of its requirement; kit/rules.ts), and whether the step cannot be judged at
 * all (kit/blocking.ts). Pure.
 */
import type { Finding } from '../../common/finding.js';
import { blockingFinding } from './blocking.js';
import type { Expected, HarnessCase } from './case-model.js';
import { harnessRule, isCrossCutting } from './rules.js';
import { decodeFrames, type CaseRecords, type WireFrame } from './wire-records.js';

/**
 * Splits findings into those the case judges and those it only notices: a cross-cutting rule's
 * finding (kit/rules.ts) counts only in a case whose requirements include the rule's; every other
 * finding, whatever requirement its rule belongs to, is judged.
 */
export function judgedByCase(
  findings: readonly Finding[],
  requirements: readonly string[],
): { judged: Finding[]; noticed: Finding[] } {
  const judged: Finding[] = [];
  const noticed: Finding[] = [];
  for (const f of findings) {
    (isCrossCutting(f.rule) && !requirements.includes(f.requirement) ? noticed : judged).push(f);
  }
  return { judged, noticed };
}

/**
 * What blocks the step: its expectation rests on the backend's answer (delivered, and delivery is
 * not the case's own subject), no request of the call was found, and frames that reached the
 * case's mock while the step ran hold no request it could answer (kit/blocking.ts).
 */
export function stepBlocker(
  testCase: HarnessCase,
  expected: Expected,
  records: CaseRecords,
  stepFrames: readonly WireFrame[],
): Finding | undefined {
  if (expected.wire !== 'delivered' || records.requests.length > 0) return undefined;
  if (testCase.requirements.includes(harnessRule(expected.deliveryRule).requirement)) return undefined;
  return blockingFinding(stepFrames);
}

/**
 * The frames the mock recorded since `sinceWallMs` that are not among the call's `records` (stdio
 * mocks stamp the same wall clock as the suite).
 */
export function framesSince(
  entries: Parameters<typeof decodeFrames>[0],
  sinceWallMs: number,
  records: CaseRecords,
) {
  const known = new Set(records.frames.map((f) => `${f.connectionId}#${f.delivery}`));
  return decodeFrames(entries).filter(
    (f) => f.atWallMs >= sinceWallMs && !known.has(`${f.connectionId}#${f.delivery}`),
  );
}
