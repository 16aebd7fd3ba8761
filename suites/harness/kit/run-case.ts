/**
 * Runs one harness case through the fixture: scenario into the mock, `configure`, one `invoke`
 * per step, then the judge and the wire cross-check. Every problem of a step is reported at once;
 * the case attaches its evidence (with the wire transcript when it fails).
 */
import type { JsonObject, JsonValue } from '../../../protocol/json.js';
import type { CaseContext } from '../../kit/case.js';
import type { DriverToolEvent, InvokeParams, InvokeResult } from '../../driver/index.js';
import type { CaseRunContext, CaseStep, Expected, HarnessCase, StepRun } from './case-model.js';
import { deriveExpectation, waitsForDeadline } from './expectation.js';
import { missingFeature } from './features.js';
import type { FixtureState } from './fixture.js';
import { judgeAnswer } from './judge.js';
import { caseRegistration, CASE_BACKEND_ID } from './registration.js';
import { caseScenario } from './scenario.js';
import { stepEvidence } from './transcript.js';
import { checkWire } from './wire-check.js';
import { decodeFrames, recordsForCall } from './wire-records.js';

/** The case's `timeoutMs` (scaled margins, or the case's exact number). */
export function caseTimeoutMs(testCase: HarnessCase, state: Pick<FixtureState, 'margins'>): number {
  const d = testCase.deadline ?? (waitsForDeadline(testCase) ? 'short' : 'answer');
  if (typeof d === 'number') return d;
  return d === 'short' ? state.margins.shortDeadlineMs(testCase.transport) : state.margins.answerDeadlineMs;
}

/** The `tool.before` of one step: fixed content, unique identities. */
export function caseEvent(state: Pick<FixtureState, 'prefix'>, n: number): DriverToolEvent {
  return {
    id: `evt-${state.prefix}-${n}`,
    session: { id: `sess-${state.prefix}` },
    call: { id: `call-${state.prefix}-${n}` },
    tool: { name: 'Bash', input: { command: 'ls -la /tmp', description: 'list files' } },
  };
}

/** A case failure carrying every problem, one per line. */
export class CaseFailure extends Error {
  constructor(readonly problems: string[]) {
    super(problems.map((p) => `- ${p}`).join('\n'));
    this.name = 'CaseFailure';
  }
}

function mockFor(state: FixtureState, testCase: HarnessCase) {
  return testCase.transport === 'http' ? state.mocks.http : state.mocks.control;
}

async function awaitDeliveries(
  state: FixtureState,
  testCase: HarnessCase,
  callId: string,
  count: number,
  method = 'hooks/intercept',
) {
  const mock = mockFor(state, testCase);
  const matching = () =>
    decodeFrames(mock.recordings({ type: 'inbound' })).filter(
      (f) => f.callId === callId && f.method === method,
    ).length;
  // Stdio mocks record through the control server, possibly after the driver answered: wait for it.
  await mock
    .waitForDelivery(() => matching() >= count, { timeoutMs: state.margins.deliveryWaitMs })
    .catch(() => undefined);
}

async function runStep(
  state: FixtureState,
  testCase: HarnessCase,
  step: CaseStep,
  index: number,
  ids: { event: DriverToolEvent; expected: Expected },
  runContext: CaseRunContext,
): Promise<{ run: StepRun; problems: string[]; untested?: string }> {
  const { event, expected } = ids;
  const params: InvokeParams = { event };
  if (step.invoke?.budgetMs !== undefined) params.budgetMs = step.invoke.budgetMs;
  if (step.invoke?.cancelAfterMs !== undefined) params.cancelAfterMs = step.invoke.cancelAfterMs;
  const started = performance.now();
  const result: InvokeResult = await state.client.invoke(params);
  const elapsedMs = performance.now() - started;
  const entry = result.audit.find((a) => a.backendId === CASE_BACKEND_ID && a.mode !== 'observe');
  if (expected.wire !== 'none') {
    await awaitDeliveries(state, testCase, event.call.id, Math.max(1, entry?.attempts ?? 1));
  }
  const eventIds = [event.id as string, ...(result.eventId === undefined ? [] : [result.eventId])];
  const records = recordsForCall(mockFor(state, testCase).recordings(), { callId: event.call.id, eventIds });
  const run: StepRun = {
    index,
    eventId: result.eventId ?? (event.id as string),
    suggestedEventId: event.id as string,
    callId: event.call.id,
    expected,
    result,
    records,
    elapsedMs,
  };
  const authorization = testCase.auth === 'token' ? `Bearer ${state.token}` : undefined;
  const wire = checkWire({
    expected,
    result,
    records,
    backendId: CASE_BACKEND_ID,
    ...(authorization === undefined ? {} : { authorization }),
  });
  const problems = [...judgeAnswer(expected, result, CASE_BACKEND_ID), ...wire.problems];
  const context = { ...runContext, runs: [...runContext.runs, run] };
  for (const check of testCase.checks ?? []) problems.push(...(await check.run(run, context)));
  return { run, problems, ...(wire.untested === undefined ? {} : { untested: wire.untested }) };
}

/** Runs one case to its verdict. */
export async function runCase(state: FixtureState, testCase: HarnessCase, ctx: CaseContext): Promise<void> {
  const lacking = missingFeature(testCase, state.info);
  if (lacking !== undefined) ctx.untested(lacking);
  const timeoutMs = caseTimeoutMs(testCase, state);
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
  const registration = caseRegistration(testCase, state.mocks.endpoints, timeoutMs);
  ctx.evidence({ registration, timeoutMs });
  const configured = await state.client.configure({
    registration,
    ...(testCase.retries === undefined ? {} : { retries: testCase.retries }),
  });
  const first = expectations[0] as Expected;
  ctx.evidence({ configure: configured as unknown as JsonValue });
  if (first.configure === 'rejected') {
    if (configured.accepted)
      throw new CaseFailure([
        `the harness accepted ${first.because.replace(/^the harness must refuse /, '')}`,
      ]);
    return;
  }
  if (!configured.accepted) {
    throw new CaseFailure([
      `the harness refused a valid registration: ${configured.issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
    ]);
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
      throw new CaseFailure(outcome.problems.map((p) => `${where}${p}`));
    }
  }
}
