/**
 * The effects cases as data: a chain of intercepting backends (a mock each) answering one call
 * with the effects beyond deny and modify (return, message, flow stop and continue, inject, allow
 * and ask), each case with what the call must come to (driver protocol v1.3 outcome members) and
 * the control state (`params.state`) each interceptor must be sent. Expectations are worked out
 * here from the composition rules (spec/draft/base/composition.md, AHP-COMP-001) and whole-response
 * acceptance (AHP-EDIT-001), never read back from a harness. Pure data.
 */
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import type { JsonObject, JsonValue } from '../../../protocol/json.js';

const COMP = 'AHP-COMP-001';
const EDIT = 'AHP-EDIT-001';
const DEC = 'AHP-DEC-001';

/** The tool input every tool.before case starts from. */
export const EFFECTS_INPUT: JsonObject = { path: 'notes/plan.md', mode: 'read' };

/** A call's advertisement, as `invoke.params.capabilities` carries it. */
export type CallCapabilities = JsonObject & { effects: string[] };

/** What a tool.before call of these cases is offered: every effect the cases answer with. */
export const TOOL_CAPABILITIES: CallCapabilities = {
  effects: ['deny', 'allow', 'ask', 'modify', 'message', 'return', 'flow', 'inject'],
  modify: { input: { replace: true, merge: true } },
  flow: { operations: ['stop'] },
  inject: { context: { append: true, deliverAt: ['now', 'next_turn'] } },
};

/** What a turn.finish.before call is offered: stop, and continue within `allowance` more steps. */
export function finishCapabilities(allowance: number): CallCapabilities {
  return {
    effects: ['flow', 'message'],
    flow: {
      operations: ['stop', 'continue'],
      remainingContinuations: allowance,
      continuationCount: 0,
      maxContinuations: allowance,
    },
  };
}

/** One interceptor of the chain: its policy and the effects it answers with. */
export interface EffectsLink {
  policy: FailurePolicy;
  effects: JsonValue[];
}

/** The control state an interceptor must be sent: the permission, and the candidate's value or none. */
export interface ExpectedState {
  permission: 'none' | 'allow' | 'ask';
  candidate: { value: JsonValue } | null;
}

/**
 * What the call must come to. Members left out are not judged; `result: 'none'` means no supplied
 * result may be reported.
 */
export interface EffectsExpectation {
  /** How many interceptors, in order, are sent the request (the rest must not be). */
  asked: number;
  /** `continue-or-deny`: a flow stop, which a harness may report either way (decision only). */
  decision: 'continue' | 'deny' | 'continue-or-deny';
  synthetic?: boolean;
  executed?: boolean;
  permission?: 'allow' | 'ask';
  result?: { value: JsonValue } | 'none';
  messages?: string[];
  flow?: 'stop' | 'continue' | 'none';
  reason?: string;
  continuationInstructions?: string[];
  continuationRemaining?: number;
  injections?: JsonValue[];
  /** The state each asked interceptor is sent, in chain order. */
  states?: ExpectedState[];
  /** The uncalled interceptors (by position) that must be sent the boundary as hooks/observe. */
  boundaryCopies?: number[];
  because: string;
}

export interface EffectsCase {
  /** The case name after the requirement ID. */
  label: string;
  requirements: string[];
  event: 'tool.before' | 'turn.finish.before';
  capabilities: CallCapabilities;
  links: EffectsLink[];
  expect: EffectsExpectation;
}

const message = (text: string): JsonObject => ({ type: 'message', text });
const supply = (value: JsonValue): JsonObject => ({ type: 'return', value });
const stop = (reason: string): JsonObject => ({ type: 'flow', operation: 'stop', reason });
const carryOn = (instruction: string): JsonObject => ({ type: 'flow', operation: 'continue', instruction });
const inject = (deliverAt: 'now' | 'next_turn', text: string): JsonObject => ({
  type: 'inject',
  target: 'context',
  operation: 'append',
  deliverAt,
  value: [
    {
      id: `note-${deliverAt}`,
      role: 'user',
      parts: [{ id: `note-${deliverAt}-p1`, kind: 'text', mediaType: 'text/plain', selection: 'body', text }],
    },
  ],
});
const merge = (value: JsonObject): JsonObject => ({
  type: 'modify',
  target: 'input',
  operation: 'merge',
  value,
});
/** A member no tool.before can accept (output is no target there): it makes its response invalid. */
const UNACCEPTABLE: JsonObject = { type: 'modify', target: 'output', operation: 'replace', value: [] };

const link = (effects: JsonValue[], policy: FailurePolicy = 'fail-closed'): EffectsLink => ({
  policy,
  effects,
});
const NONE = { permission: 'none', candidate: null } as const;

const CACHED = { lines: 12, source: 'cache' };
const REPLACEMENT = { lines: 40, source: 'index' };
const STOP_REASON = 'The plan is frozen until review.';

const tool = (
  label: string,
  requirements: string[],
  links: EffectsLink[],
  expect: EffectsExpectation,
  capabilities: CallCapabilities = TOOL_CAPABILITIES,
): EffectsCase => ({ label, requirements, event: 'tool.before', capabilities, links, expect });

const finish = (
  label: string,
  requirements: string[],
  allowance: number,
  links: EffectsLink[],
  expect: EffectsExpectation,
): EffectsCase => ({
  label,
  requirements,
  event: 'turn.finish.before',
  capabilities: finishCapabilities(allowance),
  links,
  expect,
});

export const EFFECTS_CASES: readonly EffectsCase[] = [
  tool('return/kept/not-executed-not-a-deny', [COMP], [link([supply(CACHED)]), link([])], {
    asked: 2,
    decision: 'continue',
    executed: false,
    result: { value: CACHED },
    states: [NONE, { permission: 'none', candidate: { value: CACHED } }],
    because: 'the 1st supplies a result and the 2nd leaves it: the operation does not run, without a denial',
  }),
  tool(
    'return/invalidated-by-a-later-changed-input',
    [COMP],
    [link([supply(CACHED)]), link([merge({ mode: 'write' })]), link([])],
    {
      asked: 3,
      decision: 'continue',
      result: 'none',
      states: [NONE, { permission: 'none', candidate: { value: CACHED } }, NONE],
      because: 'the 2nd changes the tool input, which voids the result supplied for the old one',
    },
  ),
  tool('return/replaced-by-a-later-return', [COMP], [link([supply(CACHED)]), link([supply(REPLACEMENT)])], {
    asked: 2,
    decision: 'continue',
    executed: false,
    result: { value: REPLACEMENT },
    because: 'a later return replaces the candidate of an earlier one',
  }),
  tool(
    'return/modify-then-return-in-one-response',
    [COMP],
    [link([merge({ mode: 'write' }), supply(CACHED)]), link([])],
    {
      asked: 2,
      decision: 'continue',
      executed: false,
      result: { value: CACHED },
      states: [NONE, { permission: 'none', candidate: { value: CACHED } }],
      because: "a response's modifications apply first, so its return binds to the changed input and stays",
    },
  ),
  tool('return/null-is-a-supplied-result', [COMP], [link([supply(null)]), link([])], {
    asked: 2,
    decision: 'continue',
    executed: false,
    result: { value: null },
    states: [NONE, { permission: 'none', candidate: { value: null } }],
    because: 'a return whose value is null still supplies a result (null), and the operation does not run',
  }),
  tool(
    'message/accumulated-across-the-chain-in-order',
    [COMP],
    [link([message('first note'), message('second note')]), link([]), link([message('third note')])],
    {
      asked: 3,
      decision: 'continue',
      messages: ['first note', 'second note', 'third note'],
      because:
        'messages of every accepted response accumulate in chain order, and in order within a response',
    },
  ),
  tool(
    'atomic/messages-of-a-rejected-response-not-shown',
    [EDIT],
    [
      link([message('kept before')]),
      link([message('from a rejected response'), UNACCEPTABLE], 'fail-open'),
      link([message('kept after')]),
    ],
    {
      asked: 3,
      decision: 'continue',
      messages: ['kept before', 'kept after'],
      because:
        'the 2nd response holds a member no tool.before accepts, so none of it (its message included) is applied; fail-open goes on',
    },
  ),
  tool(
    'atomic/deny-in-a-rejected-response-not-applied/fail-open',
    [EDIT],
    [link([{ type: 'deny', reason: 'Writes are not allowed.' }, UNACCEPTABLE], 'fail-open'), link([])],
    {
      asked: 2,
      decision: 'continue',
      synthetic: false,
      because:
        'the response is rejected as a whole, its valid deny too; fail-open moves on to the 2nd, which answers []',
    },
  ),
  tool(
    'atomic/deny-in-a-rejected-response-not-applied/fail-closed',
    [EDIT],
    [link([{ type: 'deny', reason: 'Writes are not allowed.' }, UNACCEPTABLE]), link([])],
    {
      asked: 1,
      decision: 'deny',
      synthetic: true,
      because:
        "the response is rejected as a whole, so the deny is the failure policy's (synthetic), applied once, not the backend's",
    },
  ),
  finish(
    'atomic/continue-without-allowance-rejects-the-response',
    [EDIT],
    0,
    [link([message('one more pass'), carryOn('Run the tests first.')], 'fail-open'), link([])],
    {
      asked: 2,
      decision: 'continue',
      messages: [],
      flow: 'none',
      continuationInstructions: [],
      continuationRemaining: 0,
      because:
        'no continuation remains, so a continue makes the whole response invalid (its message too); fail-open goes on',
    },
  ),
  tool(
    'permission/ask-persists-after-a-later-allow',
    [COMP],
    [link([{ type: 'ask' }]), link([{ type: 'allow' }])],
    {
      asked: 2,
      decision: 'continue',
      permission: 'ask',
      executed: false,
      states: [NONE, { permission: 'ask', candidate: null }],
      because: 'an ask stays in force whatever a later allow says: the operation waits for approval',
    },
  ),
  tool(
    'permission/deny-beats-earlier-allow-and-ask',
    [COMP],
    [
      link([{ type: 'allow' }]),
      link([{ type: 'ask' }]),
      link([{ type: 'deny', reason: 'Not on this file.' }]),
    ],
    {
      asked: 3,
      decision: 'deny',
      synthetic: false,
      executed: false,
      states: [NONE, { permission: 'allow', candidate: null }, { permission: 'ask', candidate: null }],
      because: 'a deny beats the allow and the ask accepted before it',
    },
  ),
  tool('state/sent-on-every-request', [COMP], [link([{ type: 'allow' }]), link([supply(CACHED)]), link([])], {
    asked: 3,
    decision: 'continue',
    states: [
      NONE,
      { permission: 'allow', candidate: null },
      { permission: 'allow', candidate: { value: CACHED } },
    ],
    because: 'each interceptor is sent the permission and candidate the accepted responses before it made',
  }),
  tool(
    'flow-stop/reason-kept-later-interceptors-given-the-boundary',
    [COMP],
    [
      link([message('checked the plan')], 'fail-open'),
      link([stop(STOP_REASON)], 'fail-open'),
      link([], 'fail-open'),
    ],
    {
      asked: 2,
      decision: 'continue-or-deny',
      executed: false,
      flow: 'stop',
      reason: STOP_REASON,
      messages: ['checked the plan'],
      boundaryCopies: [2],
      because:
        "the 2nd stops the flow: the tool does not run, the stop's reason stands, and the uncalled 3rd is sent the boundary as an observation",
    },
  ),
  finish('continue/with-an-instruction', [COMP], 2, [link([carryOn('Run the tests first.')])], {
    asked: 1,
    decision: 'continue',
    flow: 'continue',
    continuationInstructions: ['Run the tests first.'],
    continuationRemaining: 1,
    because: 'an accepted continue asks for one more step with its instruction, using one of two allowed',
  }),
  finish(
    'continue/several-use-one-allowance-unit',
    [COMP],
    2,
    [link([carryOn('Run the tests first.')]), link([carryOn('Then update the changelog.')])],
    {
      asked: 2,
      decision: 'continue',
      flow: 'continue',
      continuationInstructions: ['Run the tests first.', 'Then update the changelog.'],
      continuationRemaining: 1,
      because:
        'every continue of the call asks for the same one more step: the instructions accumulate, one unit is used',
    },
  ),
  finish(
    'continue/stop-beats-continue',
    [COMP],
    1,
    [link([carryOn('Run the tests first.')], 'fail-open'), link([stop(STOP_REASON)], 'fail-open')],
    {
      asked: 2,
      decision: 'continue-or-deny',
      flow: 'stop',
      continuationRemaining: 1,
      because: 'a stop beats an earlier continue, so no further step is taken and the allowance is not used',
    },
  ),
  tool(
    'inject/accepted-injections-in-order',
    [COMP],
    [
      link([inject('now', 'the plan was reviewed')]),
      link([]),
      link([inject('next_turn', 'remind about tests')]),
    ],
    {
      asked: 3,
      decision: 'continue',
      injections: [inject('now', 'the plan was reviewed'), inject('next_turn', 'remind about tests')],
      because: 'accepted injections accumulate in chain order, each as the backend sent it',
    },
  ),
  tool(
    'inject/unadvertised-delivery-rejects-the-response',
    [DEC],
    [
      link([inject('now', 'too early'), message('said with it')], 'fail-open'),
      link([inject('next_turn', 'on time')]),
    ],
    {
      asked: 2,
      decision: 'continue',
      messages: [],
      injections: [inject('next_turn', 'on time')],
      because:
        'the call offers delivery at next_turn only, so an injection for now is unadvertised and its whole response is rejected',
    },
    { ...TOOL_CAPABILITIES, inject: { context: { append: true, deliverAt: ['next_turn'] } } },
  ),
];
