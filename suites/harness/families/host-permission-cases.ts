/**
 * What the host does with the operation once AHP has settled (driver protocol v1.1: `executed`,
 * `hostPermission`, `permission`).
 *
 * AHP-DEC-002 (MUST; spec/draft/server/tool-interception.md#AHP-DEC-002): a harness that accepts a
 * valid deny does not execute the operation. An accepted explicit deny must come back with
 * `executed: false`.
 * AHP-DEC-003 (MUST NOT; spec/draft/server/tool-interception.md#AHP-DEC-003): an empty effect list
 * is no authorization grant and does not bypass harness permissions, sandboxing or approval. With
 * a host permission of deny or ask, a backend's `[]` leaves it deny or ask, and the call does not run.
 * AHP-SEC-001 (MUST NOT; spec/draft/base/index.md#AHP-SEC-001): AHP does not weaken host
 * authorization, permissions, approval or sandbox controls; no effect only means no AHP denial.
 * Besides the empty list, an accepted `allow` effect never lifts a host deny, and a fail-open
 * failure never turns a host ask into permission to run.
 *
 * AHP-DEC-002 again, with a host permission: an accepted deny ends the operation at `deny`
 * whatever the host said (driver protocol v1.1), since a final `allow` or `ask` would let the host
 * run it, at once or once approved.
 * AHP-CAP-001 (MUST; spec/draft/base/capabilities.md#AHP-CAP-001): a harness advertises only
 * effects it can enforce. One that advertises `ask` at tool.before and accepts it must require an
 * approval: under a host that allows, the operation ends at `ask` and (the driver's host has no
 * user) is not executed.
 *
 * Every case first runs a positive control: a call nothing objects to, under a host that allows
 * it, must be reported executed. A harness that reports `executed: false` for every call would
 * pass the checks without showing anything, so then the case is `untested` with that reason,
 * unless a later call already showed a violation (executed or a permission looser than it must
 * be): that is a failure whatever the control said.
 */
import type { Finding } from '../../common/finding.js';
import type { CaseCheck, CaseStep, HarnessCase, StepRun } from '../kit/case-model.js';
import { driverCase } from '../kit/define.js';
import { anyTransport } from '../kit/features.js';
import type { HarnessFixture } from '../kit/fixture.js';
import { runCase } from '../kit/run-case.js';
import { finding, type RuleKey } from '../kit/rules.js';
import type { HarnessTransport } from '../kit/timing.js';
import { EXPLICIT_DENY_REASON } from './fail-matrix.js';

/** None of these depends on the transport: the first one the driver announces serves. */
const ANY_TRANSPORT = ['stdio-persistent', 'stdio-per_event', 'http'];

/** The control step: no objection, host allows, so the operation must run. */
const CONTROL: CaseStep = { label: 'control-allowed-call', behaviour: { kind: 'respond' } };

/** What a step's result must say about execution and the final permission. */
export interface Outcome {
  executed: boolean;
  /** Only for steps that send a host permission. */
  permission?: 'allow' | 'ask' | 'deny';
  why: string;
  /** The rule the outcome rests on. */
  rule: RuleKey;
}

/**
 * The check of every step: every later step must match its outcome; the control (step 0) must be
 * executed, or a case whose later steps all matched says nothing (untested, after its last step).
 */
export function executionCheck(outcomes: readonly Outcome[]): CaseCheck {
  return {
    name: 'executed and permission as the host must end',
    run(run: StepRun, context) {
      const { executed, permission } = run.result;
      if (executed === undefined) {
        return [
          finding(
            'host.execution-reported',
            'the driver announces features.execution, but its invoke result has no executed',
          ),
        ];
      }
      if (run.index === 0) return [];
      const want = outcomes[run.index - 1] as Outcome;
      const problems: Finding[] = [];
      if (executed !== want.executed) {
        problems.push(finding(want.rule, `${want.why}, yet the result says executed: ${String(executed)}`));
      }
      if (want.permission !== undefined && permission !== want.permission) {
        problems.push(
          finding(
            want.rule,
            `${want.why}: the final permission must be "${want.permission}", the result says ` +
              `${permission === undefined ? 'nothing' : `"${permission}"`}`,
          ),
        );
      }
      if (
        problems.length === 0 &&
        run.index === outcomes.length &&
        context.runs[0]?.result.executed !== true
      ) {
        context.untested(
          'the harness reports executed: false for a call nothing objected to and the host allowed, ' +
            'so its executed shows nothing about a deny',
        );
      }
      return problems;
    },
  };
}

/** One case: its name, requirements, the steps after the control and what each must end with. */
interface HostCase {
  name: string;
  requirements: string[];
  policy: 'fail-open' | 'fail-closed';
  /** Whether the case sends a host permission (then it needs features.hostPermission too). */
  hostPermission: boolean;
  steps: readonly { step: CaseStep; outcome: Outcome }[];
  /** A step's own check, run before the execution check (e.g. that allow was advertised). */
  before?: CaseCheck;
}

/** The case's own check that the effect its later steps answer is advertised at tool.before. */
function advertisedAtToolBefore(effect: 'allow' | 'ask'): CaseCheck {
  return {
    name: `${effect} is advertised at tool.before`,
    run(run, context) {
      if (run.index === 0) return [];
      const advertised = run.records.requests[0]?.advertised ?? [];
      if (!advertised.includes(effect)) {
        context.untested(`the harness does not advertise ${effect} at tool.before, so it cannot accept one`);
      }
      return [];
    },
  };
}

const HOST_CASES: readonly HostCase[] = [
  {
    name: 'AHP-DEC-002/accepted-deny-is-not-executed',
    requirements: ['AHP-DEC-002'],
    // A valid deny denies whatever the policy: fail-open shows it is the deny, not the policy.
    policy: 'fail-open',
    hostPermission: false,
    steps: [
      {
        step: { label: 'explicit-deny', behaviour: { kind: 'deny', reason: EXPLICIT_DENY_REASON } },
        outcome: {
          executed: false,
          why: 'the harness accepted a valid deny',
          rule: 'host.deny-not-executed',
        },
      },
    ],
  },
  {
    name: 'AHP-DEC-002/accepted-deny-ends-at-deny-whatever-the-host-allowed',
    requirements: ['AHP-DEC-002'],
    policy: 'fail-open',
    hostPermission: true,
    steps: (['allow', 'ask'] as const).map((host) => ({
      step: {
        label: `host-${host}-explicit-deny`,
        behaviour: { kind: 'deny', reason: EXPLICIT_DENY_REASON },
        hostPermission: host,
      },
      outcome: {
        executed: false,
        permission: 'deny' as const,
        why:
          `the host said ${host} and the harness accepted a valid deny, so the operation must not run ` +
          `(${host === 'ask' ? 'not even once approved' : 'a final allow would run it'})`,
        rule: 'host.deny-not-executed' as const,
      },
    })),
  },
  {
    name: 'AHP-DEC-003/host-deny-and-ask-survive-an-empty-effect-list',
    requirements: ['AHP-DEC-003', 'AHP-SEC-001'],
    policy: 'fail-closed',
    hostPermission: true,
    steps: (['deny', 'ask'] as const).map((host) => ({
      step: { label: `host-${host}-empty-list`, behaviour: { kind: 'respond' }, hostPermission: host },
      outcome: {
        executed: false,
        permission: host,
        why: `the host said ${host} and the backend answered an empty effect list, which is no authorization`,
        rule: 'host.empty-list-no-grant' as const,
      },
    })),
  },
  {
    name: 'AHP-SEC-001/allow-effect-does-not-lift-host-deny',
    requirements: ['AHP-SEC-001'],
    policy: 'fail-closed',
    hostPermission: true,
    steps: [
      {
        step: {
          label: 'host-deny-backend-allow',
          behaviour: { kind: 'respond', effects: [{ type: 'allow' }] },
          hostPermission: 'deny',
          means: { kind: 'answer', because: 'a valid, advertised allow effect' },
          expect: { audit: { outcome: 'effects' } },
        },
        outcome: {
          executed: false,
          permission: 'deny',
          why: 'the host said deny and the backend answered allow, which cannot grant what the host refused',
          rule: 'host.never-weakened',
        },
      },
    ],
    before: advertisedAtToolBefore('allow'),
  },
  {
    name: 'AHP-SEC-001/fail-open-failure-with-host-ask-is-not-executed',
    requirements: ['AHP-SEC-001'],
    policy: 'fail-open',
    hostPermission: true,
    steps: [
      {
        step: {
          label: 'host-ask-malformed-reply',
          behaviour: { kind: 'malformed-json' },
          hostPermission: 'ask',
        },
        outcome: {
          executed: false,
          permission: 'ask',
          why: 'the host said ask and the interception failed open, which is no approval',
          rule: 'host.never-weakened',
        },
      },
    ],
  },
  {
    name: 'AHP-CAP-001/advertised-ask-is-enforced-under-a-host-that-allows',
    requirements: ['AHP-CAP-001'],
    policy: 'fail-closed',
    hostPermission: true,
    steps: [
      {
        step: {
          label: 'host-allow-backend-ask',
          behaviour: { kind: 'respond', effects: [{ type: 'ask' }] },
          hostPermission: 'allow',
          means: { kind: 'answer', because: 'a valid, advertised ask effect' },
          expect: { audit: { outcome: 'effects' } },
        },
        outcome: {
          executed: false,
          permission: 'ask',
          why:
            'the harness advertised ask and accepted one, which needs an approval the driver never gives, ' +
            'so the operation must wait for it',
          rule: 'host.ask-enforced',
        },
      },
    ],
    before: advertisedAtToolBefore('ask'),
  },
];

function harnessCase(spec: HostCase, transport: HarnessTransport): HarnessCase {
  return {
    name: spec.name,
    requirements: spec.requirements,
    transport,
    policy: spec.policy,
    needs: ['execution'],
    ...CONTROL,
    then: spec.steps.map((s) => s.step),
    checks: [...(spec.before ? [spec.before] : []), executionCheck(spec.steps.map((s) => s.outcome))],
  };
}

/** Declares the host-permission cases on the first transport the driver announces. */
export function declareHostPermissionCases(fixture: HarnessFixture): void {
  for (const spec of HOST_CASES) {
    driverCase(
      fixture,
      { name: spec.name, requirements: spec.requirements, transports: ANY_TRANSPORT },
      {
        transport: 'any',
        features: spec.hostPermission ? ['execution', 'hostPermission'] : ['execution'],
      },
      async (ctx, state) => {
        await runCase(state, harnessCase(spec, anyTransport(state.info)), ctx);
      },
    );
  }
}
