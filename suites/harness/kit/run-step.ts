/**
 * One call of a harness case: `invoke`, wait for what the mock must have recorded, then the judge,
 * the wire cross-check and the case's own checks. Findings are returned, all at once: those the
 * case judges, and the cross-cutting ones it only notices (their rule belongs to a requirement the
 * case does not name); or the finding that blocks the case (kit/blocking.ts).
 */
import type { InterceptableEvent } from '../../../protocol/events.js';
import type { DriverToolEvent, InvokeParams, InvokeResult } from '../../driver/index.js';
import type { CaseRunContext, CaseStep, Expected, HarnessCase, StepRun } from './case-model.js';
import type { FixtureState } from './fixture.js';
import { isJsonObject } from '../../../protocol/json.js';
import type { Finding } from '../../common/finding.js';
import { samplePayload } from './event-payloads.js';
import { gaveUpEarly } from './gave-up-early.js';
import { judgeAnswer } from './judge.js';
import { settle } from './expectation.js';
import { readJustLate, type JustLateReading } from './just-late.js';
import { CASE_BACKEND_ID } from './registration.js';
import { blockingFinding } from './blocking.js';
import { waitUntilArrivedOrQuiet } from './quiet-wait.js';
import { framesSince, judgedByCase, stepBlocker } from './step-verdict.js';
import { checkWire } from './wire-check.js';
import { startedDuring, startOutlastedDeadline, stillStarting } from './cold-start.js';
import type { CaseSteps } from './step-identity.js';
import { decodeFrames, recordsForCall, type CaseRecords, type WireFrame } from './wire-records.js';
import { awaitEofReadings, eofFinding, type EofReading } from './per-event-eof.js';

/** The event of one step as `invoke` sends it. */
export type StepEvent = InvokeParams['event'];

/** The `tool.before` of one step (v1 shape): fixed content, unique identities. */
export function caseEvent(state: Pick<FixtureState, 'prefix'>, n: number): DriverToolEvent {
  return {
    id: `evt-${state.prefix}-${n}`,
    session: { id: `sess-${state.prefix}` },
    call: { id: `call-${state.prefix}-${n}` },
    tool: { name: 'Bash', input: { command: 'ls -la /tmp', description: 'list files' } },
  };
}

/**
 * The event of one step: the v1 `tool.before` by default; any other type is the suite's sample
 * payload with the type named and the same unique identities (driver protocol v1.1), and the
 * `parentEventId` of a step linked to an earlier one.
 */
export function stepEvent(
  state: Pick<FixtureState, 'prefix'>,
  n: number,
  type: InterceptableEvent = 'tool.before',
  parentEventId?: string,
): StepEvent {
  if (type === 'tool.before') return caseEvent(state, n);
  const payload = samplePayload(type);
  // A tool event keeps a unique call id: steps are keyed by it.
  if (isJsonObject(payload.call)) payload.call = { id: `call-${state.prefix}-${n}` };
  if (parentEventId !== undefined) payload.parentEventId = parentEventId;
  return { type, id: `evt-${state.prefix}-${n}`, session: { id: `sess-${state.prefix}` }, ...payload };
}

/**
 * The identities of a step's frames (kit/step-identity.ts): the suggested event id, which a v1.1
 * harness keeps (it fills in only a missing id), and the call id of a tool event.
 */
export function stepIds(event: StepEvent): string[] {
  const call = event.call;
  const callId = isJsonObject(call) && typeof call.id === 'string' ? [call.id] : [];
  return [event.id as string, ...callId];
}

/** The call id of a tool event, else the suggested event id: how evidence names the step. */
export function stepName(event: StepEvent): string {
  const ids = stepIds(event);
  return ids[ids.length - 1] as string;
}

export function mockFor(state: FixtureState, testCase: HarnessCase) {
  return testCase.transport === 'http' ? state.mocks.http : state.mocks.control;
}

/**
 * Waits until the mock recorded `count` frames of `method` that `belongs` picks (one step's, see
 * kit/step-identity.ts, which attributes every frame of the step whatever identity fields it
 * fills in, so no wait is spent on a frame that identifies differently). Stdio mocks record
 * through the control server, possibly after the driver answered, hence the wait (up to
 * `deliveryWaitMs`; a case whose frames all arrive never waits long). With `mayFallShort` (an
 * expectation that allows fewer deliveries than attempts, such as a retry the deadline cut before
 * its per_event process read the request) the wait also ends once the wire has been quiet for the
 * settle tolerance: no recording and no mock process alive, so no straggler can still deliver;
 * before, such a case waited the whole delivery window for a frame that never comes.
 */
export async function awaitDeliveries(
  state: FixtureState,
  testCase: HarnessCase,
  belongs: (frame: WireFrame) => boolean,
  count: number,
  method = 'hooks/intercept',
  mayFallShort = false,
  startedWallMs?: number,
): Promise<void> {
  const mock = mockFor(state, testCase);
  const mine = () => decodeFrames(mock.recordings({ type: 'inbound' })).filter(belongs);
  const matching = () => mine().filter((f) => f.method === method).length;
  if (!mayFallShort) {
    const startedQuiet =
      startedWallMs === undefined ? () => false : startQuiet(state, testCase, startedWallMs);
    // A step whose frames hold no request the mock can answer is blocked (kit/blocking.ts): no
    // frame that arrives later can make it judgeable, so the wait ends there; so does a step whose
    // backend came up after the call began and was given nothing (kit/cold-start.ts).
    const settled = () => {
      const frames = mine();
      return (
        frames.filter((f) => f.method === method).length >= count ||
        blockingFinding(frames) !== undefined ||
        (frames.length === 0 && startedQuiet())
      );
    };
    await mock.waitForDelivery(settled, { timeoutMs: state.margins.deliveryWaitMs }).catch(() => undefined);
    return;
  }
  await waitUntilArrivedOrQuiet(
    {
      arrived: () => matching() >= count,
      recorded: () => mock.recordings().length,
      running: () =>
        testCase.transport !== 'http' &&
        state.mocks.control.processes().some((p) => p.alive && p.exit === undefined),
    },
    state.margins.deliveryWaitMs,
    state.margins.settleToleranceMs,
  );
}

/**
 * True once every stdio mock process that came up after `startedWallMs` has been known for the
 * settle tolerance: a request the harness wrote to one while it started is read and recorded as
 * it comes up, so by then none is coming.
 */
function startQuiet(state: FixtureState, testCase: HarnessCase, startedWallMs: number): () => boolean {
  if (testCase.transport === 'http') return () => false;
  const firstSeen = new Map<number, number>();
  return () => {
    const now = performance.now();
    const fresh = startedDuring(state.mocks.control.processes(), { startedWallMs });
    for (const p of fresh) if (!firstSeen.has(p.pid)) firstSeen.set(p.pid, now);
    return (
      fresh.length > 0 &&
      fresh.every((p) => now - (firstSeen.get(p.pid) ?? now) >= state.margins.settleToleranceMs)
    );
  };
}

/** What one step came to. */
export interface StepOutcome {
  run: StepRun;
  /** What the case judges. */
  findings: Finding[];
  /** Cross-cutting findings of rules the case does not judge: evidence only. */
  noticed: Finding[];
  /** The finding that keeps the case from being judged (the case ends `blocked`). */
  blocked?: Finding;
  untested?: string;
  inconclusive?: boolean;
  justLate?: JustLateReading;
  undecidable?: string;
  /** The call ended while its backend was still starting, as the driver's answer allows: it shows nothing. */
  coldStart?: string;
}

export async function runStep(
  state: FixtureState,
  testCase: HarnessCase,
  step: CaseStep,
  index: number,
  ids: { event: StepEvent; expected: Expected; steps: CaseSteps },
  runContext: CaseRunContext,
): Promise<StepOutcome> {
  const { event, expected, steps } = ids;
  const params: InvokeParams = { event };
  if (step.hostPermission !== undefined) params.hostPermission = step.hostPermission;
  if (step.invoke?.budgetMs !== undefined) params.budgetMs = step.invoke.budgetMs;
  if (step.invoke?.cancelAfterMs !== undefined) params.cancelAfterMs = step.invoke.cancelAfterMs;
  // When the step began, on the wall clock the mocks stamp arrivals with (less a little: rounding).
  const startedWallMs = Date.now() - 5;
  steps.begin(index);
  const started = performance.now();
  const result: InvokeResult = await state.client.invoke(params);
  const elapsedMs = performance.now() - started;
  const answeredWallMs = Date.now();
  steps.addId(index, result.eventId);
  const entry = result.audit.find((a) => a.backendId === CASE_BACKEND_ID && a.mode !== 'observe');
  const belongs = steps.of(index);
  if (expected.wire !== 'none') {
    await awaitDeliveries(
      state,
      testCase,
      belongs,
      Math.max(1, entry?.attempts ?? 1),
      'hooks/intercept',
      expected.wire === 'any',
      startedWallMs,
    );
  }
  const records = recordsForCall(mockFor(state, testCase).recordings(), belongs);
  const run: StepRun = {
    index,
    eventId: result.eventId ?? (event.id as string),
    suggestedEventId: event.id as string,
    callId: stepName(event),
    expected,
    result,
    records,
    elapsedMs,
  };
  const recordings = mockFor(state, testCase).recordings();
  // The step's own frames (an unidentified one is the step's by its arrival) and any other frame
  // that reached the mock while it ran.
  const stepFrames = [...records.frames, ...framesSince(recordings, startedWallMs, records)];
  const blocked = stepBlocker(testCase, expected, records, stepFrames);
  if (blocked !== undefined) return { run, findings: [], noticed: [], blocked };
  const starting =
    expected.wire === 'delivered' && stepFrames.length === 0 && testCase.transport !== 'http'
      ? stillStarting(state.mocks.control.processes(), {
          startedWallMs,
          answeredWallMs,
          startupSlackMs: state.margins.startupSlackMs,
        })
      : undefined;
  if (starting !== undefined) return coldStartOutcome(run, testCase, starting);
  const outlasted =
    expected.wire === 'delivered' && testCase.transport !== 'http'
      ? startOutlastedDeadline(
          state.mocks.control.processes(),
          { startedWallMs },
          records.requests,
          runContext.timeoutMs,
        )
      : undefined;
  if (outlasted !== undefined) return coldStartOutcome(run, testCase, outlasted);
  // A per_event backend that never got EOF cannot end its exchange: what the call came to then
  // rests on that, so the EOF fault blocks the case, or is the one finding of a case it is the
  // subject of (kit/per-event-eof.ts).
  const eof = await perEventEofFault(state, testCase, records);
  const eofJudged = eof !== undefined && testCase.requirements.includes(eof.requirement);
  if (eof !== undefined && !eofJudged) return { run, findings: [], noticed: [], blocked: eof };
  const authorization = testCase.auth === 'token' ? `Bearer ${state.token}` : undefined;
  const wire = checkWire({
    expected,
    result,
    records,
    backendId: CASE_BACKEND_ID,
    ...(authorization === undefined ? {} : { authorization }),
  });
  // A harness that gave up on a reply its deadline allowed is judged on that alone (gave-up-early.ts).
  const gaveUp = gaveUpEarly(run, entry, runContext.timeoutMs);
  const answer = gaveUp ? [gaveUp] : judgeAnswer(expected, result, CASE_BACKEND_ID);
  const context = { ...runContext, runs: [...runContext.runs, run] };
  const checked: Finding[] = [];
  for (const check of testCase.checks ?? []) checked.push(...(await check.run(run, context)));
  const wireSplit = judgedByCase(wire.findings, testCase.requirements);
  const checkSplit = judgedByCase(checked, testCase.requirements);
  const judged = [...answer, ...wireSplit.judged, ...checkSplit.judged];
  const findings = eof === undefined ? judged : [eof];
  const noticed = [...wireSplit.noticed, ...checkSplit.noticed, ...(eof === undefined ? [] : judged)];
  // A missing EOF is a finding whatever the deadline: no rerun with a longer one changes it.
  const lostRace =
    eof === undefined &&
    ((answer.length === 0 &&
      wireSplit.judged.length > 0 &&
      deadlineRaceLost(testCase, expected, records.requests.length)) ||
      answerDeadlineOutrun(testCase, expected, entry, records.requests.length));
  // The wire's complaints follow from the missing request; the answer's and the checks' do not.
  const undecidable = pendingRaceLost(
    testCase,
    expected,
    answer.length + checkSplit.judged.length,
    records.requests.length,
  );
  const justLate =
    step.late === 'just'
      ? readJustLate(
          run,
          findings.map((f) => f.message),
          runContext.timeoutMs,
          started,
          state.margins,
        )
      : undefined;
  return {
    run,
    findings,
    noticed,
    ...(justLate === undefined ? {} : { justLate }),
    ...(wire.untested === undefined ? {} : { untested: wire.untested }),
    ...(lostRace ? { inconclusive: true } : {}),
    ...(undecidable === undefined ? {} : { undecidable }),
  };
}

/**
 * The EOF fault of a per_event call's processes: each that read one of the call's intercept
 * requests must reach stdin EOF soon after it (waits, bounded by the frames' own due times).
 */
async function perEventEofFault(
  state: FixtureState,
  testCase: HarnessCase,
  records: CaseRecords,
): Promise<Finding | undefined> {
  if (testCase.transport !== 'stdio-per_event' || records.requests.length === 0) return undefined;
  return eofFinding(await perEventEofReadings(state, records.requests));
}

/** What the stdio mock processes that read `frames` show of their stdin EOF (kit/per-event-eof.ts). */
export function perEventEofReadings(
  state: Pick<FixtureState, 'mocks' | 'margins'>,
  frames: readonly WireFrame[],
): Promise<EofReading[]> {
  return awaitEofReadings(frames, () => state.mocks.control.processes(), {
    eofAfterMessageMs: state.margins.eofAfterMessageMs,
    reportSlackMs: state.margins.strayFrameWaitMs,
  });
}

/**
 * A call whose backend was still starting when it ended (kit/cold-start.ts) is judged on what the
 * driver reported: a deadline failure under the case's policy is what the draft asks for, and it
 * shows nothing of what the case checks (the case runs again with a longer deadline, and is `untested` with the reason when every
 * attempt ends so); any other answer is wrong
 * whatever the backend did, and fails as the case's expectation says. Nothing is judged against
 * the wire, which holds nothing of the call.
 */
export function coldStartOutcome(run: StepRun, testCase: HarnessCase, starting: string): StepOutcome {
  const asExpected = judgeAnswer(run.expected, run.result, CASE_BACKEND_ID);
  const asDeadline = judgeAnswer(deadlineFailure(run.expected, testCase), run.result, CASE_BACKEND_ID);
  if (asExpected.length === 0 || asDeadline.length === 0) {
    return { run, findings: [], noticed: [], coldStart: starting };
  }
  return { run, findings: asExpected, noticed: [] };
}

/** The expectation of a call its deadline ended before any reply: a deadline failure under the policy. */
function deadlineFailure(expected: Expected, testCase: HarnessCase): Expected {
  const settled = settle(
    { kind: 'failure', classes: ['deadline-exceeded'], because: 'the backend was still starting' },
    testCase.policy,
  );
  return { configure: 'accepted', ...settled, wire: 'any', deliveryRule: expected.deliveryRule };
}

/**
 * Why the call shows nothing, when a case that needs its request pending at the interruption
 * (`needsPendingRequest`) had the call rightly interrupted before its request reached the mock:
 * a process start or a loaded socket outlasted the cancellation or the budget, which the harness
 * counts from its own start of the call. A wrong answer, or a case check's finding (an
 * observation sent without any request), is judged whatever the wire shows.
 */
export function pendingRaceLost(
  testCase: HarnessCase,
  expected: Expected,
  answerProblems: number,
  requests: number,
): string | undefined {
  if (testCase.needsPendingRequest === undefined || !expected.interrupted) return undefined;
  if (answerProblems > 0 || requests > 0) return undefined;
  const ended = expected.ending === 'budget-expired' ? 'ran out of budget' : 'was cancelled';
  return `the call ${ended} before its request reached the mock`;
}

/**
 * True when a call that should have been answered ran out of its derived deadline while an
 * attempt the harness counts had not reached the mock: the deadline was spent on process starts
 * (per_event retries each boot one) before the backend could even answer, which on a heavily
 * loaded machine takes longer than the generous `answer` deadline. That shows nothing about the
 * harness, so the case runs again with the deadline doubled, as for a lost race; a harness that
 * never sends its last attempt fails every time.
 */
export function answerDeadlineOutrun(
  testCase: HarnessCase,
  expected: Expected,
  entry: { failureClass?: string; attempts?: number } | undefined,
  requests: number,
): boolean {
  return (
    typeof testCase.deadline !== 'number' &&
    expected.audit.outcome !== 'operational-failure' &&
    entry?.failureClass === 'deadline-exceeded' &&
    requests < (entry.attempts ?? 1)
  );
}

/**
 * True when a call that had to run into its deadline ended before its request reached the mock,
 * while the driver's answer was otherwise right: on a loaded machine a per-event process can take
 * longer to boot and read its stdin than the deadline lasts. That proves nothing either way, so
 * the case runs again with a longer deadline (only derived deadlines grow; an exact one is data).
 */
export function deadlineRaceLost(testCase: HarnessCase, expected: Expected, requests: number): boolean {
  return (
    typeof testCase.deadline !== 'number' &&
    expected.wire === 'delivered' &&
    requests === 0 &&
    (expected.audit.classes?.includes('deadline-exceeded') ?? false)
  );
}
