/**
 * AHP-EDIT-001 through driver protocol v1, at tool.before: a chain of two or three intercepting
 * backends, each a mock of its own (kit/backend-set.ts), where each backend's request shows the
 * tool input the harness passed on. An accepted `modify` of the input (replace, or a shallow
 * object merge) is exactly what the next interceptor and the observers see; a response with one
 * bad member is rejected whole, so nothing of it is applied and the failure policy acts once; a
 * modify outside the authority the request advertised is an operational failure
 * (invalid-effects). The authority is read from the recorded request
 * (kit/advertised-authority.ts): a case whose edit the harness did not advertise is `untested`
 * with the reason.
 */
import type { JsonValue } from '../../../protocol/json.js';
import type { CaseContext } from '../../common/case.js';
import type { DriverToolEvent } from '../../driver/index.js';
import {
  advertisedAfterAll,
  requestCapabilities,
  unadvertisedModify,
  withheldOperation,
} from '../kit/advertised-authority.js';
import { startBackendSet, type SetBackend } from '../kit/backend-set.js';
import { driverCase } from '../kit/define.js';
import { configureHarness } from '../kit/lane-driver.js';
import { usableTransports } from '../kit/features.js';
import type { FixtureState, HarnessFixture } from '../kit/fixture.js';
import { CaseFailure } from '../../common/finding.js';
import { refusedValidRegistration } from '../kit/run-case.js';
import { stepIds } from '../kit/run-step.js';
import { finding } from '../kit/rules.js';
import { CaseSteps, issuedBySuite } from '../kit/step-identity.js';
import type { HarnessTransport } from '../kit/timing.js';
import type { WireFrame } from '../kit/wire-records.js';
import {
  EDIT_CASES,
  OPERATION_CASE_LABEL,
  ORIGINAL_INPUT,
  withheldEdit,
  type ChainLink,
  type EditCase,
} from './edit-case-data.js';
import { chainProblems, ordinal, toolInput, type ChainRun } from './edit-judge.js';

/**
 * Edits do not depend on the transport (the cases declare `Needs.transport: 'any'`), but a chain
 * costs a process per backend over stdio: HTTP first when the driver has it, else a stdio lifecycle.
 */
const EDIT_TRANSPORTS: readonly HarnessTransport[] = ['http', 'stdio-persistent', 'stdio-per_event'];

/** A chain on one transport, with or without an observer after the interceptors. */
interface EditChain {
  transport: HarnessTransport;
  links: readonly ChainLink[];
  observe?: boolean;
}

/** The tool.before of one chain call: the original input, unique identities per lane. */
function editEvent(prefix: string, n: number): DriverToolEvent {
  return {
    id: `evt-${prefix}-${n}`,
    session: { id: `sess-${prefix}` },
    call: { id: `call-${prefix}-${n}` },
    tool: { name: 'Bash', input: structuredClone(ORIGINAL_INPUT) },
  };
}

/** The backends of a chain: one per interceptor, answering with its effects, then the observer. */
export function chainBackends(chain: Omit<EditChain, 'transport'>, timeoutMs: number): SetBackend[] {
  const backends: SetBackend[] = chain.links.map((link) => ({
    subscriptions: [{ mode: 'intercept', policy: link.policy, timeoutMs }],
    replies: [{ kind: 'respond', effects: link.effects }],
  }));
  if (chain.observe) backends.push({ subscriptions: [{ mode: 'observe' }], replies: [] });
  return backends;
}

/**
 * Configures the chain, raises one tool.before and collects what each backend received of it. The
 * first request comes first, since its authority decides whether the case applies (`before`): a
 * harness that advertises no edit is then untested without waiting for requests it never sends.
 */
async function runChain(
  state: FixtureState,
  ctx: CaseContext,
  chain: EditChain,
  expectedRequests: number,
  before?: (first: WireFrame | undefined) => void,
): Promise<ChainRun> {
  const event = editEvent(state.prefix, ++state.counter);
  const steps = new CaseSteps([stepIds(event)], issuedBySuite(state.prefix));
  const { margins } = state;
  const set = await startBackendSet(chain.transport, chainBackends(chain, margins.answerDeadlineMs), steps);
  // The registration names mocks of this case only: no later case may keep this harness.
  state.configured = undefined;
  try {
    const registration = set.registration();
    ctx.evidence({ transport: chain.transport, registration });
    const configured = await configureHarness(state, { registration }, ctx);
    if (!configured.accepted) {
      const what = `a valid registration of ${chain.links.length} interceptors`;
      throw new CaseFailure([refusedValidRegistration(configured.issues, what)]);
    }
    set.begin(0);
    const answer = await state.client.invoke({ event });
    steps.addId(0, answer.eventId);
    ctx.evidence({ answer: answer as unknown as JsonValue });
    await set.waitFor(0, 0, 'hooks/intercept', 1, margins.deliveryWaitMs);
    before?.(set.callAt(0, 0).requests[0]?.frame);
    // The driver answers once the call settled, so every request was sent: a shortfall is the
    // harness's, and each wait ends once its backend's wire is quiet.
    const { deliveryWaitMs, settleToleranceMs } = margins;
    const observer = chain.links.length;
    await Promise.all([
      ...chain.links.map((_, i) =>
        set.waitFor(i, 0, 'hooks/intercept', i < expectedRequests ? 1 : 0, deliveryWaitMs, settleToleranceMs),
      ),
      set.waitFor(observer, 0, 'hooks/observe', chain.observe ? 1 : 0, deliveryWaitMs, settleToleranceMs),
    ]);
    // A stdio backend's frames reach its control server on their own: give a stray one its moment.
    if (chain.transport !== 'http') {
      await new Promise((resolve) => setTimeout(resolve, margins.strayFrameWaitMs));
    }
    const requests = chain.links.map((_, i) => set.callAt(i, 0).requests.map((r) => r.frame));
    const notifications = chain.observe ? set.callAt(observer, 0).notifications.map((n) => n.frame) : [];
    ctx.evidence({ seenInputs: requests.flat().map((r) => toolInput(r) ?? null) });
    return { answer, firstId: set.ids[0] as string, requests, notifications };
  } finally {
    await set.close();
  }
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

function pickTransport(ctx: CaseContext, state: FixtureState): HarnessTransport {
  const usable = usableTransports(EDIT_TRANSPORTS, state.info);
  if ('untested' in usable) ctx.untested(usable.untested);
  return usable.transports[0] as HarnessTransport;
}

async function runEditCase(ctx: CaseContext, state: FixtureState, c: EditCase): Promise<void> {
  const chain: EditChain = {
    transport: pickTransport(ctx, state),
    links: c.links,
    ...(c.observe ? { observe: true } : {}),
  };
  const run = await runChain(state, ctx, chain, c.expect.inputs.length, (first) =>
    requireAuthority(ctx, c, [first]),
  );
  requireAuthority(
    ctx,
    c,
    run.requests.map((received) => received[0]),
  );
  const problems = chainProblems(run, c.expect);
  if (problems.length > 0) throw new CaseFailure(problems);
}

/**
 * A modify with an operation the request withholds for a target it does advertise. Which one is
 * only known from a request, so a first call (every backend answers `[]`) reads it.
 */
async function runOperationCase(ctx: CaseContext, state: FixtureState): Promise<void> {
  const transport = pickTransport(ctx, state);
  const reading: EditChain = { transport, links: [{ effects: [], policy: 'fail-closed' }] };
  const first = (await runChain(state, ctx, reading, 1)).requests[0]?.[0];
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
export function declareEditCases(fixture: HarnessFixture): void {
  for (const c of EDIT_CASES) {
    driverCase(
      fixture,
      { name: `AHP-EDIT-001/${c.label}`, requirements: ['AHP-EDIT-001'], transports: [...EDIT_TRANSPORTS] },
      c.observe ? { transport: 'any', features: ['observe'] } : { transport: 'any' },
      (ctx, state) => runEditCase(ctx, state, c),
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
  );
}
