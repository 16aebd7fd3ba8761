/**
 * Runs one harness case through the fixture: scenario into the mock, `configure`, one `invoke`
 * per step (run-step.ts), then the verdict. Every finding of a step is reported at once (a
 * `CaseFailure`); a step whose frames hold no request the mock could answer ends the case
 * `blocked`; the case attaches its evidence (with the wire transcript when it fails, and the
 * cross-cutting findings it only noticed).
 */
import type { JsonObject, JsonValue } from '../../../protocol/json.js';
import type { Behaviour } from '../../../mock-backend/index.js';
import type { CaseContext } from '../../common/case.js';
import { CaseFailure, type Finding } from '../../common/finding.js';
import type { CaseRunContext, CaseStep, Expected, HarnessCase, StepRun } from './case-model.js';
import { deriveExpectation, waitsForDeadline } from './expectation.js';
import { configureHarness } from './lane-driver.js';
import { missingFeature } from './features.js';
import { JUST_LATE_ATTEMPTS, JUST_LATE_TAKEN_TO_FAIL, type JustLateReading } from './just-late.js';
import type { FixtureState } from './fixture.js';
import { caseRegistration, CASE_BACKEND_ID } from './registration.js';
import {
  awaitDeliveries,
  mockFor,
  perEventEofReadings,
  runStep,
  stepEvent,
  stepIds,
  type StepEvent,
} from './run-step.js';
import { finding, prefixed } from './rules.js';
import { unevidencedRequirements } from './rule-evidence.js';
import { caseScenario, type ScenarioInputs } from './scenario.js';
import { CaseSteps, issuedBySuite } from './step-identity.js';
import { stepEvidence } from './transcript.js';
import { recordsForCall } from './wire-records.js';

export { caseEvent } from './run-step.js';

/** How many times a case whose deadline race was lost runs, its derived deadline doubling each time. */
export const DEADLINE_ATTEMPTS = 3;

/** The case's `timeoutMs` (scaled margins, or the case's exact number). */
export function caseTimeoutMs(testCase: HarnessCase, state: Pick<FixtureState, 'margins'>): number {
  const d = testCase.deadline ?? (waitsForDeadline(testCase) ? 'short' : 'answer');
  if (typeof d === 'number') return d;
  return d === 'short' ? state.margins.shortDeadlineMs(testCase.transport) : state.margins.answerDeadlineMs;
}

type Attempt =
  | { verdict: 'done' }
  | { verdict: 'inconclusive'; findings: Finding[] }
  | { verdict: 'undecidable'; why: string }
  | { verdict: 'cold-start'; why: string }
  | { verdict: 'just-late'; reading: Exclude<JustLateReading, { verdict: 'kept' }>; findings: Finding[] };

/** The findings with `note` added to the first one's message (what every attempt showed). */
function withNote(findings: readonly Finding[], note: string): Finding[] {
  return findings.map((f, i) => (i === 0 ? { ...f, message: `${f.message} ${note}` } : f));
}

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

/** True when the behaviour answers every delivery at once: a sequence when each of its branches does. */
function answersAtOnce(behaviour: Behaviour): boolean {
  if (behaviour.kind === 'sequence') {
    return [...behaviour.steps, ...(behaviour.then ? [behaviour.then] : [])].every(answersAtOnce);
  }
  return CLEAN_KINDS.has(behaviour.kind);
}

/** True when no step of the case leaves anything pending or ended (waits, late replies, exits). */
export function leavesHarnessClean(testCase: HarnessCase): boolean {
  return [testCase, ...(testCase.then ?? [])].every(
    (s) => !s.late && !s.invoke && answersAtOnce(s.behaviour),
  );
}

/** The finding of a valid registration (`what`) the harness refused, with the issues it named. */
export function refusedValidRegistration(
  issues: readonly { path: string; message: string }[],
  what = 'a valid registration',
): Finding {
  return finding(
    'registration.valid-accepted',
    `the harness refused ${what}: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
  );
}

/**
 * A registration refused because its token variable is unset: failing to resolve a credential is
 * an authentication failure, which follows the configured policy when a call is dispatched
 * (AHPX-FAIL-004), not grounds to refuse the registration. Nothing was delivered, so a case that
 * judges only what goes out without credentials has no evidence (`untested`).
 */
export function refusedUnresolvedToken(
  testCase: HarnessCase,
  issues: readonly { path: string; message: string }[],
  ctx: Pick<CaseContext, 'untested'>,
): never {
  const refusal = `the harness refused the registration because its token variable is unset (${issues.map((i) => `${i.path} ${i.message}`).join('; ')})`;
  const broken = finding(
    'auth.failure-follows-policy',
    `${refusal}: an unresolved credential is an authentication failure that follows the ${testCase.policy} policy when the call is dispatched; accept the registration and apply the policy instead`,
  );
  if (!testCase.requirements.includes(broken.requirement)) {
    ctx.untested(`${refusal}, so nothing was delivered to show whether it would send without credentials`);
  }
  throw new CaseFailure([broken]);
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
  const configured = await configureHarness(state, params, ctx);
  ctx.evidence({ configure: configured as unknown as JsonValue });
  if (first.configure === 'rejected') {
    if (configured.accepted) {
      throw new CaseFailure([
        finding(first.rule, `the harness accepted ${first.because.replace(/^the harness must refuse /, '')}`),
      ]);
    }
    return false;
  }
  if (!configured.accepted) {
    if (testCase.auth === 'missing-token') refusedUnresolvedToken(testCase, configured.issues, ctx);
    throw new CaseFailure([refusedValidRegistration(configured.issues)]);
  }
  state.configured = key;
  return true;
}

/** The cross-cutting findings a case noticed but does not judge, for its evidence. */
function noticedEvidence(noticed: readonly Finding[]): JsonObject[] {
  return noticed.map((f) => ({ rule: f.rule, requirement: f.requirement, message: f.message }));
}

async function attemptCase(
  state: FixtureState,
  testCase: HarnessCase,
  ctx: CaseContext,
  timeoutMs: number,
): Promise<Attempt> {
  const steps: CaseStep[] = [testCase, ...(testCase.then ?? [])];
  const events: StepEvent[] = [];
  for (const s of steps) {
    // A step linked to an earlier one names that event by the id the harness was asked to keep.
    const parent = s.parent === undefined ? undefined : events[s.parent];
    events.push(stepEvent(state, ++state.counter, s.event, parent?.id as string | undefined));
  }
  const expectations = steps.map((s) => deriveExpectation(testCase, s, timeoutMs));
  const mock = mockFor(state, testCase);
  const inputs: ScenarioInputs = {
    stepIds: events.map(stepIds),
    timeoutMs,
    lateByMs: state.margins.lateByMs,
    justLateByMs: state.margins.justLateByMs,
    settleToleranceMs: state.margins.settleToleranceMs,
    token: state.token,
  };
  mock.setScenario(caseScenario(testCase, inputs));
  mock.reset();
  const caseSteps = new CaseSteps(events.map(stepIds), issuedBySuite(state.prefix));
  ctx.untestedRequirements({});
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
    waitForFrames: (step, method, count) =>
      awaitDeliveries(state, testCase, caseSteps.of(step), count, method),
    untested: (reason) => ctx.untested(reason),
    mockRecordings: () => mock.recordings(),
    eofReadings: (frames) => perEventEofReadings(state, frames),
    recordsNow: (step) => recordsForCall(mock.recordings(), caseSteps.of(step)),
  };
  const evidence: JsonObject[] = [];
  const runs: StepRun[] = [];
  for (const [i, step] of steps.entries()) {
    // An intercept request that identifies with no step gets the behaviour of the step in progress.
    if (i > 0) mock.setScenario(caseScenario(testCase, { ...inputs, current: i }), { keepState: true });
    const outcome = await runStep(
      state,
      testCase,
      step,
      i,
      { event: events[i] as StepEvent, expected: expectations[i] as Expected, steps: caseSteps },
      { ...runContext, runs },
    );
    runs.push(outcome.run);
    const messages = outcome.findings.map((f) => f.message);
    const full = messages.length > 0 || outcome.blocked !== undefined;
    const stepShown = stepEvidence(outcome.run, messages, full, step.label);
    if (outcome.noticed.length > 0) stepShown.noticed = noticedEvidence(outcome.noticed);
    evidence.push(stepShown);
    ctx.evidence({ steps: evidence });
    const where = steps.length > 1 ? `call ${i + 1}${step.label ? ` (${step.label})` : ''}: ` : '';
    if (outcome.blocked !== undefined) ctx.blocked(prefixed([outcome.blocked], where)[0] as Finding);
    if (outcome.untested !== undefined) ctx.untested(outcome.untested);
    if (outcome.undecidable !== undefined) return { verdict: 'undecidable', why: outcome.undecidable };
    if (outcome.coldStart !== undefined) return { verdict: 'cold-start', why: outcome.coldStart };
    const findings = prefixed(outcome.findings, where);
    if (outcome.justLate !== undefined && outcome.justLate.verdict !== 'kept') {
      return { verdict: 'just-late', reading: outcome.justLate, findings };
    }
    if (findings.length > 0 && steps.some((s) => s.late === 'just')) {
      // A just-late case's other calls only warm the harness's connection (kit/just-late.ts).
      const why = `the warm-up call failed (${findings.map((f) => f.message).join('; ')})`;
      return { verdict: 'just-late', reading: { verdict: 'inconclusive', why }, findings };
    }
    if (findings.length > 0) {
      if (outcome.inconclusive) return { verdict: 'inconclusive', findings };
      throw new CaseFailure(findings);
    }
  }
  // A requirement whose checks read only fields the driver left out was not checked.
  ctx.untestedRequirements(unevidencedRequirements(testCase.requirements, runs, CASE_BACKEND_ID));
  return { verdict: 'done' };
}

/**
 * A case with a just-late step, to a verdict on conclusive evidence (kit/just-late.ts): it passes
 * once an attempt shows the deadline kept, fails once the harness took the just-late reply in
 * JUST_LATE_TAKEN_TO_FAIL attempts (a correct harness that the machine kept off the CPU across its
 * deadline may take one), and tries again, with the same deadline, while attempts show nothing.
 */
async function runJustLateCase(
  state: FixtureState,
  testCase: HarnessCase,
  ctx: CaseContext,
  timeoutMs: number,
): Promise<void> {
  if (testCase.transport !== 'http') {
    throw new Error(`${testCase.name}: a just-late step needs the HTTP mock, which shares the suite's clock`);
  }
  const readings: string[] = [];
  let taken: Finding[] = [];
  for (let attempt = 0; attempt < JUST_LATE_ATTEMPTS; attempt++) {
    let outcome: Attempt;
    try {
      outcome = await attemptCase(state, testCase, ctx, timeoutMs);
    } finally {
      state.configured = undefined;
    }
    if (outcome.verdict !== 'just-late') {
      readings.push('kept');
      ctx.evidence({ justLateAttempts: readings });
      if (outcome.verdict === 'inconclusive') throw new CaseFailure(outcome.findings);
      return;
    }
    const { reading } = outcome;
    readings.push(
      reading.verdict === 'taken'
        ? `taken: the reply left ${Math.round(reading.sentAfterDeadlineMs)} ms after the deadline`
        : `inconclusive: ${reading.why}`,
    );
    ctx.evidence({ justLateAttempts: readings });
    if (reading.verdict === 'taken') {
      taken = outcome.findings;
      if (readings.filter((r) => r.startsWith('taken')).length >= JUST_LATE_TAKEN_TO_FAIL) break;
    }
  }
  if (taken.length > 0) {
    throw new CaseFailure(withNote(taken, `(attempts: ${readings.join('; ')})`));
  }
  ctx.untested(
    `no attempt of ${JUST_LATE_ATTEMPTS} could send the reply just after the deadline (${readings.join('; ')})`,
  );
}

/**
 * Runs one case to its verdict. A lost deadline race runs it again with a longer deadline; an
 * attempt that shows nothing (its request was not pending at the interruption) runs again as it
 * was, and the case is `untested` when no attempt shows anything.
 */
export async function runCase(state: FixtureState, testCase: HarnessCase, ctx: CaseContext): Promise<void> {
  const lacking = missingFeature(testCase, state.info);
  if (lacking !== undefined) ctx.untested(lacking);
  const base = caseTimeoutMs(testCase, state);
  if ([testCase, ...(testCase.then ?? [])].some((s) => s.late === 'just')) {
    return runJustLateCase(state, testCase, ctx, base);
  }
  const tried: number[] = [];
  let last: Finding[] = [];
  const undecided: string[] = [];
  let timeoutMs = base;
  for (let attempt = 0; attempt < DEADLINE_ATTEMPTS; attempt++) {
    tried.push(timeoutMs);
    ctx.evidence({ deadlinesTried: tried });
    let outcome: Attempt;
    try {
      outcome = await attemptCase(state, testCase, ctx, timeoutMs);
    } catch (error) {
      state.configured = undefined;
      throw error;
    }
    if (outcome.verdict === 'done' || outcome.verdict === 'just-late') {
      if (!leavesHarnessClean(testCase)) state.configured = undefined;
      return;
    }
    state.configured = undefined;
    if (outcome.verdict === 'undecidable') {
      undecided.push(outcome.why);
      ctx.evidence({ undecidedAttempts: undecided });
      continue;
    }
    if (outcome.verdict === 'cold-start') {
      // A longer derived deadline may let the backend come up in time; an exact one is data.
      if (typeof testCase.deadline === 'number' || attempt === DEADLINE_ATTEMPTS - 1) {
        ctx.untested(`${outcome.why} (with deadlines of ${tried.join(', ')} ms)`);
      }
      timeoutMs *= 2;
      continue;
    }
    last = outcome.findings;
    timeoutMs *= 2;
  }
  if (last.length === 0) {
    ctx.untested(
      `${testCase.needsPendingRequest ?? 'the case'} cannot be shown: in ${DEADLINE_ATTEMPTS} attempts ${undecided[0] ?? 'nothing was seen'}`,
    );
  }
  throw new CaseFailure(withNote(last, `(the same with deadlines of ${tried.join(', ')} ms)`));
}
