/**
 * AHP-REG-001: a registration document without the snapshot's `protocolVersion`, or without an
 * ordered, non-empty `hooks` array, is refused at `configure`.
 * AHP-REG-002: an event goes to a backend only through a subscription whose `events` match it
 * (an exact name, the whole family `fam.*`, or `*`): the mock denies every call it receives, so a
 * tool.before sent through a subscription that does not match shows as a deny where the harness
 * must continue without any decision step. A driver protocol v1 harness raises only tool.before,
 * so the matrix is judged on that event; a harness that refuses to subscribe to a boundary it
 * cannot raise has no dispatch to judge there (untested).
 * The mode column: an interceptor that was called never receives the event as hooks/observe
 * too; an observe subscription never receives hooks/intercept; an intercept and an observe
 * subscription of one backend each get their own delivery; and the one exception, the boundary
 * copy: an interceptor left uncalled by a short-circuit gets the event as hooks/observe. The mode
 * cases run several backends, each a mock of its own (chain-cases.ts).
 */
import type { JsonObject, JsonValue } from '../../../protocol/json.js';
import { PROTOCOL_VERSION } from '../../../protocol/wire-types.js';
import { driverCase } from '../kit/define.js';
import type { CaseCheck, HarnessCase } from '../kit/case-model.js';
import type { HarnessFixture } from '../kit/fixture.js';
import { caseRegistration } from '../kit/registration.js';
import { finding } from '../kit/rules.js';
import { CaseFailure } from '../../common/finding.js';
import { runCase } from '../kit/run-case.js';
import { caseTimeoutMs } from '../kit/run-case.js';
import { anyTransport } from '../kit/features.js';
import { HARNESS_TRANSPORTS, type HarnessTransport } from '../kit/timing.js';
import type { ChainCaseSpec } from './chain-cases.js';
import { EXPLICIT_DENY_REASON } from './fail-matrix.js';

/** Neither document shape nor dispatch depends on the transport: the first one the driver has. */
const ANY_TRANSPORT = [...HARNESS_TRANSPORTS];

/** Document-level defects a harness must refuse, each as a change to a valid document. */
const DOCUMENT_DEFECTS: readonly { label: string; edit(doc: JsonObject): void }[] = [
  { label: 'protocol-version-missing', edit: (doc) => delete doc.protocolVersion },
  { label: 'protocol-version-of-revision-0.1', edit: (doc) => (doc.protocolVersion = '0.1') },
  { label: 'protocol-version-of-another-snapshot', edit: (doc) => (doc.protocolVersion = '2000-01-01') },
  { label: 'hooks-empty', edit: (doc) => (doc.hooks = []) },
  { label: 'hooks-missing', edit: (doc) => delete doc.hooks },
  {
    label: 'hooks-not-an-array',
    edit: (doc) => (doc.hooks = { first: (doc.hooks as JsonValue[])[0] ?? null }),
  },
];

/** Declares the AHP-REG-001 refusals (configure only: one transport is enough for a document). */
export function declareDocumentShapeCases(fixture: HarnessFixture): void {
  for (const defect of DOCUMENT_DEFECTS) {
    driverCase(
      fixture,
      {
        name: `AHP-REG-001/registration:${defect.label}-is-refused`,
        requirements: ['AHP-REG-001'],
        transports: ANY_TRANSPORT,
      },
      { transport: 'any' },
      async (ctx, { client, mocks, margins, info }) => {
        const transport = anyTransport(info);
        const base: HarnessCase = {
          name: 'AHP-REG-001/base',
          requirements: ['AHP-REG-001'],
          transport,
          policy: 'fail-closed',
          behaviour: { kind: 'respond' },
        };
        const registration = caseRegistration(base, mocks.endpoints, caseTimeoutMs(base, { margins }));
        defect.edit(registration);
        const answer = await client.configure({ registration });
        ctx.evidence({ registration, configure: answer as unknown as JsonValue });
        if (answer.accepted) {
          throw new CaseFailure([
            finding(
              'registration.document-shape',
              `the harness accepted a registration document with ${defect.label.replaceAll('-', ' ')}; ` +
                `it must declare protocolVersion "${PROTOCOL_VERSION}" and a non-empty hooks array`,
            ),
          ]);
        }
      },
    );
  }
}

/** One row of the dispatch matrix: a subscription's `events`, and whether tool.before matches. */
const SELECTORS: readonly { events: string[]; matches: boolean; label: string }[] = [
  { events: ['tool.*'], matches: true, label: 'family-wildcard-tool.*' },
  { events: ['*'], matches: true, label: 'wildcard-*' },
  { events: ['model.request.before'], matches: false, label: 'other-exact-name' },
  { events: ['model.*'], matches: false, label: 'other-family-wildcard-model.*' },
];

function dispatchName(selector: (typeof SELECTORS)[number]): string {
  return `AHP-REG-002/events:${selector.label}/tool.before-${selector.matches ? 'sent' : 'not-sent'}`;
}

/**
 * A check that the mock received no hooks/observe for the call; `why` (given the count) says whom
 * the mock stood for and why it was owed none. Shared by the registration families.
 */
export function noNotifications(
  name: string,
  strayWaitMs: number,
  why: (count: number) => string,
): CaseCheck {
  return {
    name,
    async run(run, context) {
      // A stdio mock records what the harness wrote on its own schedule, possibly after the answer.
      if (strayWaitMs > 0) await new Promise((resolve) => setTimeout(resolve, strayWaitMs));
      const notifications = context.recordsNow(run.index).notifications.length;
      return notifications === 0 ? [] : [finding('dispatch.selector', why(notifications))];
    },
  };
}

/**
 * The interceptor was called (and denied), so it gets no hooks/observe of the call: a called
 * interceptor is owed no boundary copy, and it has no observe subscription.
 */
function noObserveToInterceptor(strayWaitMs: number): CaseCheck {
  return noNotifications(
    'a called interceptor gets no hooks/observe',
    strayWaitMs,
    (count) =>
      `the intercept subscription's backend received ${count} hooks/observe notification(s) for the call; ` +
      'it has no observe subscription and, having been called, is owed no boundary copy',
  );
}

function dispatchCase(
  selector: (typeof SELECTORS)[number],
  transport: HarnessTransport,
  strayWaitMs: number,
): HarnessCase {
  return {
    name: dispatchName(selector),
    requirements: ['AHP-REG-002'],
    transport,
    policy: 'fail-closed',
    behaviour: { kind: 'deny', reason: EXPLICIT_DENY_REASON },
    subscription: { set: { events: selector.events } },
    ...(selector.matches
      ? {
          // Dispatch is the subject: whether the call was sent is judged, never blocked.
          expect: { rule: 'dispatch.selector', deliveryRule: 'dispatch.selector' },
          checks: [noObserveToInterceptor(strayWaitMs)],
        }
      : {
          expect: {
            decision: 'continue',
            wire: 'none',
            audit: { outcome: 'no-effect' },
            because: `no subscription matches tool.before (events ${JSON.stringify(selector.events)}), so no decision step`,
            rule: 'dispatch.selector',
            deliveryRule: 'dispatch.selector',
          },
        }),
  };
}

/** Declares the AHP-REG-002 dispatch matrix. */
export function declareDispatchCases(fixture: HarnessFixture): void {
  for (const selector of SELECTORS) {
    driverCase(
      fixture,
      { name: dispatchName(selector), requirements: ['AHP-REG-002'], transports: ANY_TRANSPORT },
      { transport: 'any' },
      async (ctx, { client, mocks, margins, info }) => {
        const transport = anyTransport(info);
        const testCase = dispatchCase(
          selector,
          transport,
          transport === 'http' ? 0 : margins.strayFrameWaitMs,
        );
        if (!selector.matches) {
          // A harness may refuse a subscription to a boundary it cannot raise: then there is no
          // dispatch to judge.
          const registration = caseRegistration(
            testCase,
            mocks.endpoints,
            caseTimeoutMs(testCase, { margins }),
          );
          const answer = await client.configure({ registration });
          if (!answer.accepted) {
            ctx.untested(
              `the harness refuses a subscription to ${selector.events.join(', ')}: ` +
                answer.issues.map((i) => `${i.path} ${i.message}`).join('; '),
            );
          }
        }
        await runCase(fixture.state, testCase, ctx);
      },
    );
  }
}

const REG = 'AHP-REG-002';
const DENY = { kind: 'deny', reason: EXPLICIT_DENY_REASON } as const;

/** The mode column of the dispatch matrix, on several backends (run by chain-cases.ts). */
export function dispatchModeCases(): ChainCaseSpec[] {
  return [
    {
      name: `${REG}/mode:intercept-and-observe-backends/each-gets-only-its-mode`,
      requirements: [REG],
      needs: ['observe'],
      backends: [{ subscriptions: ['fail-closed'] }, { subscriptions: ['observe'] }],
      expect: {
        rule: 'dispatch.selector',
        asked: [1, 0],
        observed: [0, 1],
        because: 'backend 1 only intercepts tool.before and backend 2 only observes it',
      },
    },
    {
      name: `${REG}/mode:intercept-and-observe-on-one-backend/each-gets-its-own-delivery`,
      requirements: [REG],
      needs: ['observe'],
      backends: [{ subscriptions: ['fail-closed', 'observe'] }],
      expect: {
        rule: 'dispatch.selector',
        asked: [1],
        observed: [1],
        because: 'the backend has an intercept and an observe subscription to tool.before, tracked apart',
      },
    },
    {
      name: `${REG}/mode:intercept/uncalled-interceptor-gets-the-boundary-copy`,
      requirements: [REG],
      needs: ['observe'],
      backends: [
        { subscriptions: ['fail-closed'] },
        { subscriptions: ['fail-closed'], reply: DENY },
        { subscriptions: ['fail-closed'] },
      ],
      expect: {
        rule: 'dispatch.selector',
        asked: [undefined, undefined, undefined],
        observed: [0, 0, 1],
        because:
          'the 2nd interceptor denies: the uncalled 3rd gets the boundary as hooks/observe, the called ones no copy',
      },
    },
  ];
}
