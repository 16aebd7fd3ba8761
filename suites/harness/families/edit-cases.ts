/**
 * AHP-EDIT-001 through driver protocol v1, at tool.before: a chain of two or three intercepting
 * backends on one mock, where each backend's request shows the tool input the harness passed on.
 * An accepted `modify` of the input (replace, or a shallow object merge) is exactly what the next
 * interceptor and the observers see; a response with one bad member is rejected whole, so nothing
 * of it is applied and the failure policy acts once; a modify outside the authority the request
 * advertised is an operational failure (invalid-effects). The authority is read from the recorded
 * request (kit/advertised-authority.ts): a case whose edit the harness did not advertise is
 * `untested` with the reason.
 */
import { isDeepStrictEqual } from 'node:util';
import { isJsonObject, type JsonValue } from '../../../protocol/json.js';
import type { CaseContext } from '../../kit/case.js';
import type { InvokeResult } from '../../driver/index.js';
import {
  advertisedAfterAll,
  frameParams,
  requestCapabilities,
  unadvertisedModify,
  withheldOperation,
} from '../kit/advertised-authority.js';
import { driverCase } from '../kit/define.js';
import { configureHarness } from '../kit/lane-driver.js';
import { usableTransports } from '../kit/features.js';
import type { FixtureState, HarnessFixture } from '../kit/fixture.js';
import { CaseFailure, type Finding } from '../../kit/finding.js';
import { refusedValidRegistration } from '../kit/run-case.js';
import { awaitDeliveries, stepIds } from '../kit/run-step.js';
import { finding } from '../kit/rules.js';
import { CaseSteps, issuedBySuite } from '../kit/step-identity.js';
import type { HarnessTransport } from '../kit/timing.js';
import { recordsForCall, type CaseRecords, type WireFrame } from '../kit/wire-records.js';
import {
  EDIT_CASES,
  OPERATION_CASE_LABEL,
  withheldEdit,
  type EditCase,
  type EditExpectation,
} from './edit-case-data.js';
import {
  chainBackendId,
  chainRegistration,
  chainScenario,
  editEvent,
  linkCase,
  ORIGINAL_INPUT,
  type EditChain,
} from './edit-chain.js';

/**
 * Edits do not depend on the transport (the cases declare `Needs.transport: 'any'`), but a chain
 * costs a process per backend over stdio: HTTP first when the driver has it, else a stdio lifecycle.
 */
const EDIT_TRANSPORTS: readonly HarnessTransport[] = ['http', 'stdio-persistent', 'stdio-per_event'];

const ordinal = (i: number) => ['first', 'second', 'third'][i] ?? `#${i + 1}`;

function toolInput(frame: WireFrame | undefined): JsonValue | undefined {
  const event = frame ? frameParams(frame)?.event : undefined;
  return isJsonObject(event) && isJsonObject(event.tool) ? event.tool.input : undefined;
}

/** What one chain call showed: the driver's answer and the mock's frames of the call. */
interface ChainRun {
  answer: InvokeResult;
  records: CaseRecords;
}

/**
 * Configures the chain, raises one tool.before and collects what the mock recorded of it. The
 * first request comes first, since its authority decides whether the case applies (`before`):
 * a harness that advertises no edit is then untested without waiting for requests it never sends.
 */
async function runChain(
  state: FixtureState,
  ctx: CaseContext,
  chain: EditChain,
  expectedRequests: number,
  before?: (first: WireFrame | undefined) => void,
): Promise<ChainRun> {
  const event = editEvent(state.prefix, ++state.counter);
  const mock = chain.transport === 'http' ? state.mocks.http : state.mocks.control;
  const steps = new CaseSteps([stepIds(event)], issuedBySuite(state.prefix));
  mock.setScenario(chainScenario(chain, stepIds(event)));
  mock.reset();
  const registration = chainRegistration(chain, state.mocks.endpoints, state.margins.answerDeadlineMs);
  ctx.evidence({ transport: chain.transport, registration });
  state.configured = undefined;
  const configured = await configureHarness(state, { registration }, ctx);
  if (!configured.accepted) {
    const what = `a valid registration of ${chain.links.length} interceptors`;
    throw new CaseFailure([refusedValidRegistration(configured.issues, what)]);
  }
  steps.begin(0);
  const answer = await state.client.invoke({ event });
  steps.addId(0, answer.eventId);
  ctx.evidence({ answer: answer as unknown as JsonValue });
  const probe = linkCase(chain, 'fail-closed');
  const ours = steps.of(0);
  const recorded = () => recordsForCall(mock.recordings(), ours);
  await awaitDeliveries(state, probe, ours, 1);
  before?.(recorded().requests[0]);
  // The driver answers once the call settled, so every request was sent: a shortfall is the
  // harness's, and the wait ends once the wire is quiet.
  await awaitDeliveries(state, probe, ours, expectedRequests, 'hooks/intercept', true);
  if (chain.observe) await awaitDeliveries(state, probe, ours, 1, 'hooks/observe', true);
  const records = recorded();
  ctx.evidence({ seenInputs: records.requests.map((r) => toolInput(r) ?? null) });
  return { answer, records };
}

/**
 * Untested, with the reason, when a request did not advertise what the case needs of it (or
 * advertised the target that must stand outside its authority). A missing request is the
 * harness's failure, judged with the rest; there is no authority to read in it.
 */
function requireAuthority(ctx: CaseContext, c: EditCase, requests: readonly (WireFrame | undefined)[]): void {
  requests.forEach((request, i) => {
    const needs = c.needs[i];
    if (needs === undefined || request === undefined) return;
    const which = `the ${ordinal(i)} interceptor's request`;
    const lacking = unadvertisedModify(requestCapabilities(request), needs, which);
    if (lacking !== undefined) ctx.untested(lacking);
  });
  const first = requests[0];
  if (c.outside !== undefined && first !== undefined) {
    const advertised = advertisedAfterAll(
      requestCapabilities(first),
      c.outside,
      "the first interceptor's request",
    );
    if (advertised !== undefined) ctx.untested(advertised);
  }
}

/** Every way the call, the wire and the audit differ from the expectation. */
export function chainProblems(run: ChainRun, expected: EditExpectation): Finding[] {
  const { answer, records } = run;
  const problems: Finding[] = [];
  const outcome = (message: string) => problems.push(finding('edit.outcome', message));
  const passedOn = (message: string) => problems.push(finding('edit.passed-on', message));
  if (answer.decision !== expected.decision) {
    outcome(`the decision was ${answer.decision}, expected ${expected.decision}: ${expected.because}`);
  }
  if (answer.synthetic !== expected.synthetic) {
    outcome(`synthetic was ${answer.synthetic}, expected ${expected.synthetic}: ${expected.because}`);
  }
  const entry = answer.audit.find((a) => a.backendId === chainBackendId(0) && a.mode !== 'observe');
  if (entry && entry.outcome !== expected.first.outcome) {
    outcome(`the first interceptor's audit outcome was ${entry.outcome}, expected ${expected.first.outcome}`);
  }
  if (entry?.failureClass !== undefined && 'failureClass' in expected.first) {
    if (entry.failureClass !== expected.first.failureClass) {
      outcome(`the failure class was ${entry.failureClass}, expected ${expected.first.failureClass}`);
    }
  }
  const { requests } = records;
  if (requests.length !== expected.inputs.length) {
    outcome(
      `the mock recorded ${requests.length} intercept request(s) of the call, expected ${expected.inputs.length} ` +
        `(the policy applies once, and only a continuing chain asks the next interceptor)`,
    );
  }
  expected.inputs.forEach((input, i) => {
    const request = requests[i];
    if (request === undefined) return;
    const seen = toolInput(request);
    if (!isDeepStrictEqual(seen, input)) {
      passedOn(
        `the ${ordinal(i)} interceptor was sent tool.input ${JSON.stringify(seen)}, expected exactly ` +
          `${JSON.stringify(input)}${i === 0 ? ' (the original)' : ''}: ${expected.because}`,
      );
    }
  });
  if (expected.observed !== undefined) {
    if (records.notifications.length === 0) passedOn('the observer was sent no hooks/observe of the call');
    for (const note of records.notifications) {
      const seen = toolInput(note);
      if (!isDeepStrictEqual(seen, expected.observed)) {
        passedOn(
          `the observer was sent tool.input ${JSON.stringify(seen)}, expected the effective ` +
            `${JSON.stringify(expected.observed)}: ${expected.because}`,
        );
      }
    }
  }
  return problems;
}

function pickTransport(ctx: CaseContext, state: FixtureState): HarnessTransport {
  const usable = usableTransports(EDIT_TRANSPORTS, state.info);
  if ('untested' in usable) ctx.untested(usable.untested);
  return usable.transports[0] as HarnessTransport;
}

async function runEditCase(ctx: CaseContext, state: FixtureState, c: EditCase): Promise<void> {
  const chain: EditChain = {
    name: `AHP-EDIT-001/${c.label}`,
    transport: pickTransport(ctx, state),
    links: c.links,
    ...(c.observe ? { observe: true } : {}),
  };
  const run = await runChain(state, ctx, chain, c.expect.inputs.length, (first) =>
    requireAuthority(ctx, c, [first]),
  );
  requireAuthority(ctx, c, run.records.requests);
  const problems = chainProblems(run, c.expect);
  if (problems.length > 0) throw new CaseFailure(problems);
}

/**
 * A modify with an operation the request withholds for a target it does advertise. Which one is
 * only known from a request, so a first call (every backend answers `[]`) reads it.
 */
async function runOperationCase(ctx: CaseContext, state: FixtureState): Promise<void> {
  const transport = pickTransport(ctx, state);
  const name = `AHP-EDIT-001/${OPERATION_CASE_LABEL}`;
  const reading: EditChain = { name, transport, links: [{ effects: [], policy: 'fail-closed' }] };
  const first = (await runChain(state, ctx, reading, 1)).records.requests[0];
  if (first === undefined) {
    throw new CaseFailure([finding('delivery.request-sent', 'the probe call reached no interceptor')]);
  }
  const capabilities = requestCapabilities(first);
  const lacking = unadvertisedModify(capabilities, [], 'the request');
  if (lacking !== undefined) ctx.untested(lacking);
  const withheld = withheldOperation(capabilities);
  if (withheld === undefined || withheld.target !== 'input') {
    ctx.untested(
      'the harness advertises both replace and merge for the tool input, so no operation lies outside its authority',
    );
  }
  const chain: EditChain = {
    name,
    transport,
    links: [
      { effects: [withheldEdit(withheld)], policy: 'fail-closed' },
      { effects: [], policy: 'fail-closed' },
    ],
  };
  const run = await runChain(state, ctx, chain, 1);
  const problems = chainProblems(run, {
    decision: 'deny',
    synthetic: true,
    inputs: [ORIGINAL_INPUT],
    first: { outcome: 'operational-failure', failureClass: 'invalid-effects' },
    because: `the request advertised modify of input without ${withheld.operation}, so that edit is an operational failure; fail-closed denies`,
  });
  if (problems.length > 0) throw new CaseFailure(problems);
}

/** Declares the AHP-EDIT-001 cases. */
export function declareEditCases(fixture: HarnessFixture, scale: number): void {
  for (const c of EDIT_CASES) {
    driverCase(
      fixture,
      { name: `AHP-EDIT-001/${c.label}`, requirements: ['AHP-EDIT-001'], transports: [...EDIT_TRANSPORTS] },
      c.observe ? { transport: 'any', features: ['observe'] } : { transport: 'any' },
      (ctx, state) => runEditCase(ctx, state, c),
      scale,
    );
  }
  driverCase(
    fixture,
    {
      name: `AHP-EDIT-001/${OPERATION_CASE_LABEL}`,
      requirements: ['AHP-EDIT-001'],
      transports: [...EDIT_TRANSPORTS],
    },
    { transport: 'any' },
    (ctx, state) => runOperationCase(ctx, state),
    scale,
  );
}
