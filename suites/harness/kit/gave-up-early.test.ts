import { describe, expect, it } from 'vitest';
import type { InvokeResult } from '../../driver/index.js';
import { inTimeCases } from '../families/deadline-in-time.js';
import type { HarnessCase, StepRun } from './case-model.js';
import { deriveExpectation } from './expectation.js';
import { gaveUpEarly } from './gave-up-early.js';
import { judgeAnswer } from './judge.js';
import { CASE_BACKEND_ID } from './registration.js';
import type { WireFrame } from './wire-records.js';

const BACKEND = CASE_BACKEND_ID;
const TIMEOUT_MS = 12_000;
/** The fail-open case past 5 s over HTTP: a deny held 6 s. */
const [pastFive] = inTimeCases('http') as [HarnessCase];

/** A run of `testCase` answered `result` after `elapsedMs`, its request held as the case holds it. */
function run(testCase: HarnessCase, result: InvokeResult, elapsedMs: number, requests = 1): StepRun {
  const request = { atMs: 1010, behaviour: testCase.behaviour } as WireFrame;
  const frames = Array.from({ length: requests }, () => request);
  return {
    index: 0,
    eventId: 'evt-1',
    suggestedEventId: 'evt-1',
    callId: 'call-1',
    expected: deriveExpectation(testCase, testCase, TIMEOUT_MS),
    result,
    records: { frames, requests: frames, notifications: [] },
    elapsedMs,
  };
}

/** What a harness with a 5 s timeout of its own answers under fail-open: it continues. */
const gaveUp: InvokeResult = {
  decision: 'continue',
  synthetic: false,
  interrupted: false,
  audit: [
    {
      backendId: BACKEND,
      outcome: 'operational-failure',
      failureClass: 'deadline-exceeded',
      policy: 'fail-open',
      synthetic: false,
      durationMs: 5003,
    },
  ],
};

/** The reference's answer: the held deny, applied. */
const applied: InvokeResult = {
  decision: 'deny',
  synthetic: false,
  interrupted: false,
  audit: [{ backendId: BACKEND, outcome: 'deny', policy: 'fail-open', synthetic: false, durationMs: 6010 }],
};

describe('gaveUpEarly', () => {
  it('names a give-up before a reply held inside the deadline, with the evidence, in one finding', () => {
    const found = gaveUpEarly(run(pastFive, gaveUp, 5100), gaveUp.audit[0], TIMEOUT_MS);
    expect(found?.rule).toBe('deadline.full-length');
    expect(found?.requirement).toBe('AHP-FAIL-002');
    expect(found?.message).toMatch(
      /^the harness gave up after 5\.0 s, inside the 12 s timeoutMs: a transport timeout shorter than the deadline /,
    );
    expect(found?.message).toContain('held its reply 6.0 s');
    expect(found?.message).toContain('class deadline-exceeded, after 5003 ms');
  });

  it('counts on the suite when the driver reports no audit', () => {
    const bare = { ...gaveUp, audit: [] };
    expect(gaveUpEarly(run(pastFive, bare, 5100), undefined, TIMEOUT_MS)?.message).toMatch(
      /gave up after 5\.1 s.*the driver reported no audit entry/,
    );
  });

  it('the judge alone spreads the same give-up over rules of other requirements', () => {
    // Why the step is judged on the give-up alone: its other differences follow from it.
    const findings = judgeAnswer(run(pastFive, gaveUp, 5100).expected, gaveUp, BACKEND);
    const requirements = new Set(findings.map((f) => f.requirement));
    expect([...requirements].filter((id) => id !== 'AHP-FAIL-002')).not.toEqual([]);
  });

  it('says nothing of a reply applied, of an answer after the reply could leave, or of an undelivered call', () => {
    expect(gaveUpEarly(run(pastFive, applied, 6100), applied.audit[0], TIMEOUT_MS)).toBeUndefined();
    // Answered after the hold: the reply may have reached the harness, which then refused it.
    expect(gaveUpEarly(run(pastFive, gaveUp, 6100), gaveUp.audit[0], TIMEOUT_MS)).toBeUndefined();
    expect(gaveUpEarly(run(pastFive, gaveUp, 5100, 0), gaveUp.audit[0], TIMEOUT_MS)).toBeUndefined();
  });

  it('reads only steps whose expectation rests on the deadline being the configured one', () => {
    const plain: HarnessCase = { ...pastFive, means: { kind: 'deny', reason: 'x', because: 'a deny' } };
    expect(gaveUpEarly(run(plain, gaveUp, 5100), gaveUp.audit[0], TIMEOUT_MS)).toBeUndefined();
  });
});
