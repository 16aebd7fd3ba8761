/**
 * One scenario of `scenarios.json` in our terms. The scenario is one intercept round trip with an
 * incoming `state`; through a driver, that state can only come from what earlier interceptors
 * did, so the runner registers one before the scenario's backend for each part of it: a
 * candidate is an earlier `return`, an incoming allow or ask an earlier effect of that kind, an
 * incoming flow stop an earlier stop (after which the scenario's backend must not be asked at all).
 * An incoming host deny is the host's own permission (driver protocol v1.1 `hostPermission`). The
 * scenario's backend answers its scripted response verbatim, under the id of the request it
 * answers when the scenario's response answered the scenario's request (a response under another
 * id is the point of its scenario). Pure.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../protocol/json.js';
import { REQUEST_ID_TEMPLATE, type Behaviour } from '../../mock-backend/index.js';
import type { InterceptScenario, InteropOutcome, InteropState } from './format.js';
import { scenarioRequirements, scenarioRule } from './requirements.js';
import type { RuleKey } from '../harness/kit/rules.js';

/** An interceptor registered before the scenario's backend, to make part of its incoming state. */
export interface PrefixLink {
  /** What it makes, for evidence and reasons ("the candidate"). */
  makes: string;
  /** The one effect it answers. */
  effect: JsonObject;
}

/** What a scenario must come to. */
export type InteropExpectation =
  | { kind: 'outcome'; outcome: InteropOutcome }
  /** Rejected whole; `host`: the host input schema's outcome, also accepted (its scenarios only). */
  | { kind: 'rejection'; host?: InteropOutcome };

/** A scenario ready to run. */
export interface InteropPlan {
  id: string;
  /** The case name: `interop/<set>/<id>`. */
  name: string;
  requirements: string[];
  /** The rule a departure is reported as. */
  rule: RuleKey;
  eventType: string;
  /** The event `invoke` raises, without its identities (id, session, call), which the run gives. */
  payload: JsonObject;
  /** The tool input before any interceptor (tool events), for "input unchanged". */
  originalInput?: JsonValue;
  /** The scenario request's capabilities. */
  capabilities: JsonObject;
  /** The response's effect list as scripted (any JSON). */
  effects: JsonValue | undefined;
  prefixes: PrefixLink[];
  /** The host's own permission before AHP, when the state says the host denies. */
  hostPermission?: 'deny';
  /** What the scenario's backend answers. */
  reply: Behaviour;
  /** Whether the scenario's backend must be asked (not after an earlier flow stop). */
  asked: boolean;
  /** The incoming state the scenario's backend must receive (absent: not checked). */
  state?: InteropState;
  expect: InteropExpectation;
}

/** Names of interop cases begin with this; the set and the scenario id follow. */
export const INTEROP_CASE_PREFIX = 'interop/';

export function interopCaseName(set: string, id: string): string {
  return `${INTEROP_CASE_PREFIX}${set}/${id}`;
}

/** The reason of the earlier interceptor's flow stop. */
export const PREFIX_STOP_REASON = 'stopped by an earlier interceptor';

/** The prefix interceptors that make `state` (candidate first: a later permission keeps it). */
export function prefixesFor(state: InteropState | undefined): PrefixLink[] {
  if (state === undefined) return [];
  const links: PrefixLink[] = [];
  if (state.candidate !== null) {
    links.push({
      makes: 'the candidate',
      effect: { type: 'return', value: state.candidate.value as JsonValue },
    });
  }
  if (state.permission === 'allow' || state.permission === 'ask') {
    links.push({ makes: `the incoming ${state.permission}`, effect: { type: state.permission } });
  }
  if (state.flow === 'stop') {
    // A flow stop carries its reason (a stop without one is rejected whole).
    const effect = { type: 'flow', operation: 'stop', reason: PREFIX_STOP_REASON };
    links.push({ makes: 'the incoming flow stop', effect });
  }
  return links;
}

/**
 * The scenario's response as raw bytes: verbatim, its id replaced by the mock's request-id
 * template when it answered the scenario's own request.
 */
export function replyBehaviour(response: JsonObject, requestId: JsonValue): Behaviour {
  const { id, ...rest } = response;
  if (!('id' in response) || !isDeepStrictEqualId(id, requestId)) {
    return { kind: 'raw', chunks: [{ text: `${JSON.stringify(response)}\n` }] };
  }
  const body = JSON.stringify(rest);
  const members = body === '{}' ? '' : `,${body.slice(1, -1)}`;
  return { kind: 'raw', chunks: [{ text: `{"id":${REQUEST_ID_TEMPLATE}${members}}\n` }] };
}

function isDeepStrictEqualId(a: JsonValue | undefined, b: JsonValue): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}

/** The event payload without the identities and envelope members the run or the harness set. */
export function payloadOf(event: JsonObject): JsonObject {
  const {
    id: _id,
    source: _source,
    time: _time,
    session: _session,
    call: _call,
    type: _type,
    ...rest
  } = event;
  return rest;
}

export function translateScenario(scenario: InterceptScenario, set = 'scenarios'): InteropPlan {
  const { params } = scenario.request;
  const event = params.event as JsonObject;
  const state = params.state;
  const requirements = scenarioRequirements(scenario.tags);
  const rejection = scenario.expectError === true;
  const tool = isJsonObject(event.tool) ? event.tool : undefined;
  const result = scenario.response.result;
  const plan: InteropPlan = {
    id: scenario.id,
    name: interopCaseName(set, scenario.id),
    requirements,
    rule: scenarioRule(requirements, rejection),
    eventType: event.type as string,
    payload: payloadOf(event),
    capabilities: params.capabilities as JsonObject,
    effects: isJsonObject(result as JsonValue) ? (result as JsonObject).effects : undefined,
    prefixes: prefixesFor(state),
    reply: replyBehaviour(scenario.response as JsonObject, scenario.request.id),
    asked: state?.flow !== 'stop',
    expect: rejection
      ? { kind: 'rejection', ...(scenario.hostExpected ? { host: scenario.hostExpected } : {}) }
      : { kind: 'outcome', outcome: scenario.expected as InteropOutcome },
  };
  if (tool !== undefined && 'input' in tool) plan.originalInput = tool.input as JsonValue;
  if (state?.permission === 'deny') plan.hostPermission = 'deny';
  if (state !== undefined) plan.state = state;
  return plan;
}
