import { describe, expect, it } from 'vitest';
import type { InvokeResult } from '../../driver/index.js';
import { budgetCases } from '../families/budget-cases.js';
import { bearerPlacementCases } from '../families/auth-binding-cases.js';
import { compositionCases } from '../families/composition-cases.js';
import { unknownFieldCases } from '../families/core-unknown-fields-cases.js';
import { wireEventCases } from '../families/core-wire-event-cases.js';
import { cancelCases } from '../families/deadline-cancel-cases.js';
import { failureMatrix } from '../families/fail-matrix.js';
import { observerFailureCases } from '../families/fail-observe-cases.js';
import { observerRetryCases } from '../families/observe-retry-cases.js';
import {
  ownedObservationBudgetCases,
  ownedObservationCancelCases,
} from '../families/owned-observation-cases.js';
import { dispatchModeCases } from '../families/registration-dispatch-cases.js';
import type { Expected, HarnessCase, StepRun } from './case-model.js';
import { deriveExpectation } from './expectation.js';
import type { HarnessFixture } from './fixture.js';
import { judgeAnswer } from './judge.js';
import { CASE_BACKEND_ID } from './registration.js';
import {
  REPORTED_FIELDS,
  requirementEvidence,
  RULE_EVIDENCE,
  unevidencedRequirements,
} from './rule-evidence.js';
import { HARNESS_RULES, type RuleKey } from './rules.js';
import { wireFrame } from './test-support/wire-samples.js';
import type { HarnessTransport } from './timing.js';

const TRANSPORTS: readonly HarnessTransport[] = ['http', 'stdio-persistent', 'stdio-per_event'];
// The builders below read the fixture only when a case runs.
const NO_FIXTURE = {} as HarnessFixture;

/** The harness cases that are plain data, from every family that builds them without a fixture run. */
const BUILT: readonly object[] = [
  ...TRANSPORTS.flatMap((t) => [
    ...failureMatrix(t),
    ...budgetCases(NO_FIXTURE, t),
    ...cancelCases(NO_FIXTURE, t),
  ]),
  ...unknownFieldCases(),
  ...wireEventCases(),
  ...observerFailureCases(),
  ...observerRetryCases(),
  ...ownedObservationBudgetCases(),
  ...ownedObservationCancelCases(),
  ...compositionCases(),
  ...dispatchModeCases(),
  ...bearerPlacementCases(),
];
// Cases that choose their transport when they run are built then; the rest are data now.
const CASES = BUILT.filter((c): c is HarnessCase => 'behaviour' in c);

/**
 * The least a driver may answer: the required fields as the expectation wants them, and an audit
 * entry with only its backend and outcome (none where the call leaves no entry).
 */
function emptyResult(expected: Expected): InvokeResult {
  const entry = expected.wire !== 'none' || expected.audit.outcome === 'operational-failure';
  return {
    decision: expected.decision,
    synthetic: expected.synthetic,
    interrupted: expected.interrupted,
    audit: entry ? [{ backendId: CASE_BACKEND_ID, outcome: expected.audit.outcome }] : [],
  };
}

/** The empty result, with the failure class an operational failure must name. */
function withClass(expected: Expected): InvokeResult {
  const result = emptyResult(expected);
  const [entry] = result.audit;
  const [failureClass] = expected.audit.classes ?? [];
  if (entry && failureClass !== undefined) entry.failureClass = failureClass;
  return result;
}

/** Each step of `testCase` run against a driver that answers `answer` (one request reached the mock). */
function runsOf(testCase: HarnessCase, answer: (e: Expected) => InvokeResult): StepRun[] {
  return [testCase, ...(testCase.then ?? [])].map((step, index) => {
    const expected = deriveExpectation(testCase, step, 1000);
    const request = wireFrame({ eventId: `evt-${index}`, jsonrpcId: `evt-${index}` });
    const requests = expected.wire === 'none' ? [] : [request];
    return {
      index,
      eventId: `evt-${index}`,
      suggestedEventId: `evt-${index}`,
      callId: `call-${index}`,
      expected,
      result: answer(expected),
      records: { frames: requests, requests, notifications: [] },
      elapsedMs: 1,
    };
  });
}

/** The rules of a requirement. */
const rulesOf = (id: string) =>
  (Object.keys(HARNESS_RULES) as RuleKey[]).filter((k) => HARNESS_RULES[k].requirement === id);

describe('the evidence each harness rule reads', () => {
  it('is declared for every rule of the catalogue, and names only fields it knows', () => {
    expect(Object.keys(RULE_EVIDENCE).sort()).toEqual(Object.keys(HARNESS_RULES).sort());
    for (const [key, fields] of Object.entries(RULE_EVIDENCE)) {
      for (const field of fields) expect(Object.keys(REPORTED_FIELDS), key).toContain(field);
    }
  });

  it('leaves a requirement unchecked only when every rule of it reads a field a driver may leave out', () => {
    const requirements = [...new Set(Object.values(HARNESS_RULES).map((r) => r.requirement))];
    for (const id of requirements) {
      const optionalOnly = rulesOf(id).every((k) => RULE_EVIDENCE[k].length > 0);
      expect(requirementEvidence(id)?.length !== 0, id).toBe(optionalOnly);
    }
    expect(requirementEvidence('AHPX-FAIL-007')).toEqual(['audit.failureClass']);
    expect(requirementEvidence('AHP-FAIL-001')).toEqual([]);
  });
});

describe('an empty driver result', () => {
  const cases = CASES.filter((c) => deriveExpectation(c, c, 1000).configure === 'accepted');

  it('covers cases that name requirements whose evidence is an optional field', () => {
    const named = new Set(cases.flatMap((c) => c.requirements));
    expect([...named].filter((id) => (requirementEvidence(id)?.length ?? 0) > 0)).toEqual(
      expect.arrayContaining(['AHPX-FAIL-007', 'AHPX-BUD-003']),
    );
  });

  it('gives no pass to a requirement whose every rule reads an optional field', () => {
    for (const testCase of cases) {
      const runs = runsOf(testCase, emptyResult);
      const findings = runs.flatMap((r) => judgeAnswer(r.expected, r.result, CASE_BACKEND_ID));
      const untested = unevidencedRequirements(testCase.requirements, runs, CASE_BACKEND_ID);
      for (const id of testCase.requirements) {
        const fields = requirementEvidence(id) ?? [];
        // Judged on the required fields alone: the requirement is checked, or the answer fails.
        if (fields.length === 0 || findings.length > 0) continue;
        const shown = fields.some((f) => runs.some((r) => REPORTED_FIELDS[f].reported(r, r.result.audit[0])));
        expect(untested[id] !== undefined || shown, `${testCase.name}: ${id}`).toBe(true);
        if (!shown)
          expect(untested[id], `${testCase.name}: ${id}`).toMatch(
            /^the driver reported no .+ was not checked$/,
          );
      }
    }
  });

  it('credits AHPX-FAIL-007 only to a driver that names the failure class in every failing call', () => {
    const matrix = failureMatrix('http').filter((c) => c.requirements.includes('AHPX-FAIL-007'));
    expect(matrix.length).toBeGreaterThan(5);
    for (const testCase of matrix) {
      const bare = runsOf(testCase, emptyResult);
      expect(unevidencedRequirements(testCase.requirements, bare, CASE_BACKEND_ID)).toMatchObject({
        'AHPX-FAIL-007': expect.stringMatching(
          /reported no audit failureClass.*AHPX-FAIL-007 was not checked/,
        ),
      });
      expect(unevidencedRequirements(testCase.requirements, bare, CASE_BACKEND_ID)).not.toHaveProperty(
        'AHP-FAIL-001',
      );
      const named = runsOf(testCase, withClass);
      expect(unevidencedRequirements(testCase.requirements, named, CASE_BACKEND_ID)).toEqual({});
    }
  });

  it('names the calls that lacked the field when only some reported it', () => {
    const testCase = failureMatrix('http').find(
      (c) => (c.then?.length ?? 0) > 0 && c.requirements.includes('AHPX-FAIL-007'),
    ) as HarnessCase;
    const runs = runsOf(testCase, withClass);
    const [, second] = runs as [StepRun, StepRun];
    delete (second.result.audit[0] as { failureClass?: string }).failureClass;
    expect(unevidencedRequirements(testCase.requirements, runs, CASE_BACKEND_ID)['AHPX-FAIL-007']).toBe(
      'the driver reported no audit failureClass in call 2, so AHPX-FAIL-007 was not checked',
    );
  });
});
