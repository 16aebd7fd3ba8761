/**
 * What a harness does with a registration when it loads it, shape by shape, each judged on what
 * the draft allows (docs/harness-authors.md, "Registrations refused at load"):
 * - refused, no other answer: a backend id named twice (registration.md, "Backend fields"), an
 *   intercept subscription to an observation-only event (registration.md, "Subscription fields"),
 *   a managed scope without `disableable: false` (capability-auth.md, "Registration");
 * - refused, or accepted and served: a managed subscription (a harness that cannot enforce the
 *   scope refuses it, capability-auth.md, "Registration"; one it accepts must still be asked), and
 *   an observe subscription to an event the harness may not raise (the draft lets `*` stand for
 *   the events a harness supports and requires nothing of an exact name it does not: accepted, it
 *   changes no other dispatch; registration.md, AHP-REG-002).
 * A bearer token variable that is unset is no load-time shape: the draft makes it an
 * authentication failure under the configured policy (the AHP-FAIL-001 `class:auth` cases).
 * Only `configure` decides the refusals, so one transport, the first the driver has, is enough.
 */
import type { JsonObject, JsonValue } from '../../../protocol/json.js';
import { CaseFailure } from '../../common/finding.js';
import type { CaseCheck, HarnessCase } from '../kit/case-model.js';
import { driverCase } from '../kit/define.js';
import { anyTransport } from '../kit/features.js';
import type { HarnessFixture } from '../kit/fixture.js';
import { caseRegistration } from '../kit/registration.js';
import { finding, type RuleKey } from '../kit/rules.js';
import { caseTimeoutMs, runCase } from '../kit/run-case.js';
import { HARNESS_TRANSPORTS, type HarnessTransport } from '../kit/timing.js';
import { EXPLICIT_DENY_REASON } from './fail-matrix.js';
import { noNotifications } from './registration-dispatch-cases.js';

/** An event no harness can intercept (events.ts: observation-only). */
const OBSERVATION_ONLY_EVENT = 'model.error';
/** An observation-only event a harness need not raise at all. */
const MAYBE_UNRAISED_EVENT = 'hook.failure';

type Edit = (doc: JsonObject) => void;

const firstSubscription = (doc: JsonObject): JsonObject =>
  ((doc.hooks as JsonObject[])[0]?.subscriptions as JsonObject[])[0] as JsonObject;

/** A registration the draft makes invalid: refused at `configure`, whatever else the harness does. */
interface MustRefuse {
  label: string;
  /** The change that makes the case's valid registration invalid. */
  edit: Edit;
  rule: RuleKey;
  /** What was accepted, for the finding. */
  accepted: string;
}

export const MUST_REFUSE: readonly MustRefuse[] = [
  {
    label: 'duplicate-backend-id',
    edit: (doc) => {
      const hooks = doc.hooks as JsonObject[];
      hooks.push(structuredClone(hooks[0] as JsonObject));
    },
    rule: 'registration.backend-id-unique',
    accepted: 'a registration whose two backends have one id',
  },
  {
    label: `intercept-of-observation-only-event-${OBSERVATION_ONLY_EVENT}`,
    // Next to an event it may intercept: one selector it cannot serve makes the whole list invalid.
    edit: (doc) => (firstSubscription(doc).events = ['tool.before', OBSERVATION_ONLY_EVENT]),
    rule: 'registration.intercept-interceptable-only',
    accepted: `an intercept subscription to ${OBSERVATION_ONLY_EVENT}, an observation-only event`,
  },
  {
    label: 'managed-scope-without-disableable-false',
    edit: (doc) => (firstSubscription(doc).scope = 'managed'),
    rule: 'registration.managed-not-disableable',
    accepted: 'a managed-scope subscription that does not set disableable: false',
  },
];

/** A registration the draft lets a harness refuse, or accept and then serve as registered. */
interface RefuseOrServe {
  label: string;
  requirement: string;
  /** The case run when the harness accepts: its expectation is what serving the registration means. */
  served(transport: HarnessTransport, strayWaitMs: number): HarnessCase;
}

/** No hooks/observe reached the mock: the call raised no event its observe subscription selects. */
function noObservation(observer: string, strayWaitMs: number): CaseCheck {
  return noNotifications(
    `the ${observer} observer gets no hooks/observe of tool.before`,
    strayWaitMs,
    (count) =>
      `the mock received ${count} hooks/observe notification(s) for a tool.before call; ` +
      `the only observe subscription selects ${observer}, and the interceptor that was called is owed no copy`,
  );
}

export const REFUSE_OR_SERVE: readonly RefuseOrServe[] = [
  {
    label: 'managed-scope-is-refused-or-served',
    requirement: 'AHP-REG-001',
    served: (transport) => ({
      name: 'AHP-REG-001/managed-scope-served',
      requirements: ['AHP-REG-001'],
      transport,
      policy: 'fail-closed',
      behaviour: { kind: 'deny', reason: EXPLICIT_DENY_REASON },
      subscription: { set: { scope: 'managed', disableable: false } },
      // A managed subscription the harness accepted is asked like any other, its deny honoured.
      expect: {
        rule: 'registration.managed-scope-served',
        deliveryRule: 'registration.managed-scope-served',
      },
    }),
  },
  {
    label: `observe-of-${MAYBE_UNRAISED_EVENT}-is-refused-or-changes-no-dispatch`,
    requirement: 'AHP-REG-002',
    served: (transport, strayWaitMs) => ({
      name: `AHP-REG-002/observe-of-${MAYBE_UNRAISED_EVENT}-served`,
      requirements: ['AHP-REG-002'],
      transport,
      policy: 'fail-closed',
      behaviour: { kind: 'deny', reason: EXPLICIT_DENY_REASON },
      observe: { behaviour: { kind: 'respond' }, set: { events: [MAYBE_UNRAISED_EVENT] } },
      // The interceptor is still asked (the deny decides); dispatch is the subject, never blocked.
      expect: { rule: 'dispatch.selector', deliveryRule: 'dispatch.selector' },
      checks: [noObservation(MAYBE_UNRAISED_EVENT, strayWaitMs)],
    }),
  },
];

/** The valid one-backend registration every shape starts from. */
export function baseCase(transport: HarnessTransport): HarnessCase {
  return {
    name: 'AHP-REG-001/base',
    requirements: ['AHP-REG-001'],
    transport,
    policy: 'fail-closed',
    behaviour: { kind: 'respond' },
  };
}

function issuesText(issues: readonly { path: string; message: string }[]): string {
  return issues.map((i) => `${i.path} ${i.message}`).join('; ');
}

/** Declares every load-time case (configure first; the served cases then run a call). */
export function declareLoadCases(fixture: HarnessFixture): void {
  for (const shape of MUST_REFUSE) {
    driverCase(
      fixture,
      {
        name: `AHP-REG-001/registration:${shape.label}-is-refused`,
        requirements: ['AHP-REG-001'],
        transports: [...HARNESS_TRANSPORTS],
      },
      { transport: 'any' },
      async (ctx, { client, mocks, margins, info }) => {
        const base = baseCase(anyTransport(info));
        const registration = caseRegistration(base, mocks.endpoints, caseTimeoutMs(base, { margins }));
        shape.edit(registration);
        const answer = await client.configure({ registration });
        ctx.evidence({ registration, configure: answer as unknown as JsonValue });
        if (answer.accepted) {
          throw new CaseFailure([finding(shape.rule, `the harness accepted ${shape.accepted}`)]);
        }
      },
    );
  }
  for (const shape of REFUSE_OR_SERVE) {
    driverCase(
      fixture,
      {
        name: `${shape.requirement}/registration:${shape.label}`,
        requirements: [shape.requirement],
        transports: [...HARNESS_TRANSPORTS],
      },
      { transport: 'any' },
      async (ctx, state) => {
        const transport = anyTransport(state.info);
        const testCase = shape.served(transport, transport === 'http' ? 0 : state.margins.strayFrameWaitMs);
        const timeoutMs = caseTimeoutMs(testCase, { margins: state.margins });
        const registration = caseRegistration(testCase, state.mocks.endpoints, timeoutMs);
        const answer = await state.client.configure({ registration });
        ctx.evidence({ registration, configure: answer as unknown as JsonValue });
        if (!answer.accepted) {
          // Refusing is one of the two answers the draft allows: nothing more to judge.
          ctx.evidence({ refused: issuesText(answer.issues) });
          return;
        }
        await runCase(state, testCase, ctx);
      },
    );
  }
}
