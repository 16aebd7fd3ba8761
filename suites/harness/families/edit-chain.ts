/**
 * A chain of intercepting backends for the AHP-EDIT-001 cases: several registration entries on
 * the one mock of a transport, each with its own id and failure policy, optionally followed by an
 * observer, and the scenario that answers the chain's requests in order. The mock tells the
 * interceptors apart by arrival: the harness must call them one after another in registration
 * order (AHP-COMP-001), so the n-th request of the call is the n-th interceptor's, and each rule
 * answers once. Pure: endpoints and ids come in as values.
 */
import type { Behaviour, Rule, Scenario } from '../../../mock-backend/index.js';
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import type { JsonObject, JsonValue } from '../../../protocol/json.js';
import { PROTOCOL_VERSION } from '../../../protocol/wire-types.js';
import type { DriverToolEvent } from '../../driver/index.js';
import type { HarnessCase } from '../kit/case-model.js';
import { caseRegistration, type MockEndpoints } from '../kit/registration.js';
import { identifiedRules, type StepReply } from '../kit/scenario.js';
import type { HarnessTransport } from '../kit/timing.js';

/** One interceptor of the chain: what its backend answers, and its subscription's policy. */
export interface ChainLink {
  effects: JsonValue[];
  policy: FailurePolicy;
}

/** A chain on one transport, with or without an observer after the interceptors. */
export interface EditChain {
  name: string;
  transport: HarnessTransport;
  links: readonly ChainLink[];
  observe?: boolean;
}

/** The backend id of the n-th interceptor (0-based), reverse-DNS as registration requires. */
export function chainBackendId(index: number): string {
  return `dev.ahp-conformance.edit-${index + 1}`;
}

/**
 * The tool input every chain starts from: a top-level string, a list and a nested object, so a
 * merge can show what it keeps, what it replaces whole and what it adds.
 */
export const ORIGINAL_INPUT: JsonObject = {
  command: 'ls -la /tmp',
  args: ['-l'],
  options: { cwd: '/tmp', env: { LANG: 'C' } },
  description: 'list files',
};

/** The tool.before of one chain call: the original input, unique identities per lane. */
export function editEvent(prefix: string, n: number): DriverToolEvent {
  return {
    id: `evt-${prefix}-${n}`,
    session: { id: `sess-${prefix}` },
    call: { id: `call-${prefix}-${n}` },
    tool: { name: 'Bash', input: structuredClone(ORIGINAL_INPUT) },
  };
}

/** The one-backend case the kit's builders take, for one link (or the observer). */
export function linkCase(chain: EditChain, policy: FailurePolicy, observe = false): HarnessCase {
  return {
    name: chain.name,
    requirements: ['AHP-EDIT-001'],
    transport: chain.transport,
    policy,
    behaviour: { kind: 'respond' },
    ...(observe ? { observe: { behaviour: { kind: 'silent' as const } } } : {}),
  };
}

/** The chain's registration document: the interceptors in order, then the observer. */
export function chainRegistration(chain: EditChain, endpoints: MockEndpoints, timeoutMs: number): JsonObject {
  const hooks: JsonValue[] = chain.links.map((link, i) => {
    const [entry] = caseRegistration(linkCase(chain, link.policy), endpoints, timeoutMs)
      .hooks as JsonObject[];
    return { ...(entry as JsonObject), id: chainBackendId(i) };
  });
  if (chain.observe) {
    const withObserver = caseRegistration(linkCase(chain, 'fail-closed', true), endpoints, timeoutMs);
    hooks.push((withObserver.hooks as JsonValue[])[1] as JsonValue);
  }
  return { protocolVersion: PROTOCOL_VERSION, hooks };
}

/**
 * The scenario: the call's n-th intercept request gets the n-th link's effects; observers nothing.
 * `ids` are the call's identities (kit/step-identity.ts): a request carrying none of them in any
 * identity field is answered the same, in turn.
 */
export function chainScenario(chain: EditChain, ids: readonly string[]): Scenario {
  const rules: Rule[] = [
    {
      name: 'observe',
      match: { message: 'notification', method: 'hooks/observe' },
      behaviour: { kind: 'silent' },
    },
  ];
  const replies: StepReply[] = chain.links.map((link, i) => {
    const behaviour: Behaviour = { kind: 'respond', effects: link.effects };
    // The last link answers any further request too (a harness retrying, or calling too often).
    return i < chain.links.length - 1
      ? { name: `interceptor ${i + 1}`, behaviour, times: 1 }
      : { name: `interceptor ${i + 1}`, behaviour };
  });
  rules.push(...identifiedRules([ids], [replies]));
  return { name: chain.name, rules };
}
