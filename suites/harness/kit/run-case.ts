/**
 * Runs one harness case through the fixture: scenario into the mock, `configure`, one `invoke`
 * per step (run-step.ts), then the verdict. Every problem of a step is reported at once; the case
 * attaches its evidence (with the wire transcript when it fails).
 */
import type { JsonObject, JsonValue } from '../../../protocol/json.js';
import type { CaseContext } from '../../kit/case.js';
import type { DriverToolEvent } from '../../driver/index.js';
import type { CaseRunContext, CaseStep, Expected, HarnessCase, StepRun } from './case-model.js';
import { deriveExpectation, waitsForDeadline } from './expectation.js';
import { missingFeature } from './features.js';
import type { FixtureState } from './fixture.js';
import { caseRegistration, CASE_BACKEND_ID } from './registration.js';
import { awaitDeliveries, CaseFailure, caseEvent, mockFor, runStep } from './run-step.js';
import { caseScenario } from './scenario.js';
import { stepEvidence } from './transcript.js';
import { recordsForCall } from './wire-records.js';

export { CaseFailure, caseEvent } from './run-step.js';

/** How many times a case whose deadline race was lost runs, its derived deadline doubling each time. */
export const DEADLINE_ATTEMPTS = 3;

/** The case's `timeoutMs` (scaled margins, or the case's exact number). */
export function caseTimeoutMs(testCase: HarnessCase, state: Pick<FixtureState, 'margins'>): number {
  const d = testCase.deadline ?? (waitsForDeadline(testCase) ? 'short' : 'answer');
  if (typeof d === 'number') return d;
  return d === 'short' ? state.margins.shortDeadlineMs(testCase.transport) : state.margins.answerDeadlineMs;
}

type Attempt = { verdict: 'done' } | { verdict: 'inconclusive'; problems: string[] };

/** Behaviours after which the backend is as it was: a following case may keep the harness. */
const CLEAN_KINDS = new Set([
  'respond',
  'deny',
  'rpc-error',
  'mismatched-id',
  'not-jsonrpc',
  'malformed-json',
  'malformed-utf8',
  'pretty',
  'raw',
  'http-status',
  'http-redirect',
  'http-unauthorized',
  'wrong-content-type',
]);

/** True when no step of the case leaves anything pending or ended (waits, late replies, exits). */
export function leavesHarnessClean(testCase: HarnessCase): boolean {
  return [testCase, ...(testCase.then ?? [])].every(
    (s) => !s.late && !s.invoke && CLEAN_KINDS.has(s.behaviour.kind),
  );
}

async function configureCase(
  state: FixtureState,
  testCase: HarnessCase,
  ctx: CaseContext,
  timeoutMs: number,
  first: Expected,
): Promise<boolean> {
  const registration = caseRegistration(testCase, state.mocks.endpoints, timeoutMs);
  ctx.evidence({ registration, timeoutMs });
  const params = { registration, ...(testCase.retries === undefined ? {} : { retries: testCase.retries }) };
  const key = JSON.stringify(params);
  const previous = state.configured;
  state.configured = undefined;
  if (state.reuse && first.configure === 'accepted' && previous === key) {
    ctx.evidence({ configure: 'kept the harness of the previous case (same registration)' });
    state.configured = key;
    return true;
  }
  const configured = await state.client.configure(params);
  ctx.evidence({ configure: configured as unknown as JsonValue });
  if (first.configure === 'rejected') {
    if (configured.accepted) {
      throw new CaseFailure([
        `the harness accepted ${first.because.replace(/^the harness must refuse /, '')}`,
      ]);
    }
    return false;
  }
  if (!configured.accepted) {
    throw new CaseFailure([
      `the harness refused a valid registration: ${configured.issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
    ]);
  }
  state.configured = key;
  return true;
}

async function attemptCase(
  state: FixtureState,
  testCase: HarnessCase,
  ctx: CaseContext,
  timeoutMs: number,
): Promise<Attempt> {
  const steps: CaseStep[] = [testCase, ...(testCase.then ?? [])];
  const events = steps.map(() => caseEvent(state, ++state.counter));
  const expectations = steps.map((s) => deriveExpectation(testCase, s, timeoutMs));
  const mock = mockFor(state, testCase);
  mock.setScenario(
    caseScenario(testCase, {
      callIds: events.map((e) => e.call.id),
      eventIds: events.map((e) => e.id as string),
      timeoutMs,
      lateByMs: state.margins.lateByMs,
      token: state.token,
    }),
  );
  mock.reset();
  if (!(await configureCase(state, testCase, ctx, timeoutMs, expectations[0] as Expected))) {
    return { verdict: 'done' };
  }
  const runContext: CaseRunContext = {
    testCase,
    timeoutMs,
    backendId: CASE_BACKEND_ID,
    token: state.token,
    httpUrl: state.mocks.endpoints.httpUrl,
    stdioCommand: state.mocks.endpoints.stdio,
    runs: [],
    waitForFrames: (callId, method, count) => awaitDeliveries(state, testCase, callId, count, method),
    untested: (reason) => ctx.untested(reason),
    mockRecordings: () => mockFor(state, testCase).recordings(),
    recordsNow: (callId) =>
      recordsForCall(mockFor(state, testCase).recordings(), {
        callId,
        eventIds: events.filter((e) => e.call.id === callId).map((e) => e.id as string),
      }),
  };
  const evidence: JsonObject[] = [];
  const runs: StepRun[] = [];
  for (const [i, step] of steps.entries()) {
    const outcome = await runStep(
      state,
      testCase,
      step,
      i,
      { event: events[i] as DriverToolEvent, expected: expectations[i] as Expected },
      { ...runContext, runs },
    );
    runs.push(outcome.run);
    evidence.push(stepEvidence(outcome.run, outcome.problems, outcome.problems.length > 0, step.label));
    ctx.evidence({ steps: evidence });
    if (outcome.untested !== undefined) ctx.untested(outcome.untested);
    if (outcome.problems.length > 0) {
      const where = steps.length > 1 ? `call ${i + 1}${step.label ? ` (${step.label})` : ''}: ` : '';
      const problems = outcome.problems.map((p) => `${where}${p}`);
      if (outcome.inconclusive) return { verdict: 'inconclusive', problems };
      throw new CaseFailure(problems);
    }
  }
  return { verdict: 'done' };
}

/** Runs one case to its verdict; a lost deadline race runs it again with a longer deadline. */
export async function runCase(state: FixtureState, testCase: HarnessCase, ctx: CaseContext): Promise<void> {
  const lacking = missingFeature(testCase, state.info);
  if (lacking !== undefined) ctx.untested(lacking);
  const base = caseTimeoutMs(testCase, state);
  const tried: number[] = [];
  let last: string[] = [];
  for (let attempt = 0; attempt < DEADLINE_ATTEMPTS; attempt++) {
    const timeoutMs = base * 2 ** attempt;
    tried.push(timeoutMs);
    ctx.evidence({ deadlinesTried: tried });
    let outcome: Attempt;
    try {
      outcome = await attemptCase(state, testCase, ctx, timeoutMs);
    } catch (error) {
      state.configured = undefined;
      throw error;
    }
    if (outcome.verdict === 'done') {
      if (!leavesHarnessClean(testCase)) state.configured = undefined;
      return;
    }
    state.configured = undefined;
    last = outcome.problems;
  }
  throw new CaseFailure([...last, `(the same with deadlines of ${tried.join(', ')} ms)`]);
}
