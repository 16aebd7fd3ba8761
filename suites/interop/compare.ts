/**
 * Judges one scenario run: what the driver reported of the call (`invoke` result, v1.3 outcome
 * members) and what each backend received (the mock's records), against the scenario. Returns
 * the findings (a failure) and the reasons it could not judge a part (untested: never a pass).
 * Pure: the run hands in what it observed.
 */
import { isDeepStrictEqual } from 'node:util';
import { isJsonObject, type JsonObject, type JsonValue } from '../../protocol/json.js';
import type { FailureClass } from '../../protocol/failure-classes.js';
import type { Finding } from '../common/finding.js';
import { finding } from '../harness/kit/rules.js';
import { capabilityDifference } from './capabilities.js';
import type { InvokeResult } from '../driver/index.js';
import type { InteropOutcome } from './format.js';
import type { InteropPlan } from './translate.js';

/** The failure classes of a response rejected for what it says (not for how it travelled). */
export const REJECTION_CLASSES: readonly FailureClass[] = [
  'invalid-effects',
  'missing-fields',
  'malformed',
  'id-mismatch',
  'unsupported',
];

/** What the driver announced that the comparison depends on. */
export interface ReportedFeatures {
  outcomes: boolean;
  execution: boolean;
  hostPermission: boolean;
}

/** What one run observed. */
export interface InteropObservation {
  result: InvokeResult;
  features: ReportedFeatures;
  /** The backend id of the scenario's backend in the registration. */
  backendId: string;
  /** `params` of the scenario backend's request, undefined when it was not asked. */
  request: JsonObject | undefined;
  /** `params` of each prefix interceptor's request, in order (undefined: not asked). */
  prefixRequests: (JsonObject | undefined)[];
}

/** The verdict parts: findings fail the case, reasons without findings make it untested. */
export interface InteropVerdict {
  findings: Finding[];
  untested: string[];
  /** What was accepted and why, when the draft allows more than one answer. */
  notes: string[];
}

const shown = (v: JsonValue | undefined) => (v === undefined ? 'nothing' : JSON.stringify(v));

/** What an omitted member of the incoming state stands for: nothing accepted yet. */
const STATE_DEFAULTS: JsonObject = { flow: 'none', instructions: [], injections: [] };

/**
 * The state as compared: an omitted member is its neutral value, a candidate's provenance is the
 * sender's own bookkeeping, and `permission` is left out where the incoming permission is the
 * host's own (`withoutPermission`), which the draft does not say travels in `params.state`.
 */
function comparableState(state: JsonValue | undefined, withoutPermission = false): JsonValue | undefined {
  if (!isJsonObject(state)) return state;
  const out: JsonObject = { ...STATE_DEFAULTS, ...state };
  if (withoutPermission) delete out.permission;
  if (isJsonObject(out.candidate)) {
    const { provenance: _p, ...candidate } = out.candidate;
    out.candidate = candidate;
  }
  return out;
}

/** The interop decision the driver's answer amounts to, or why it cannot tell. */
export function reportedDecision(
  result: InvokeResult,
  features: ReportedFeatures,
): { decision: InteropOutcome['decision'] } | { unknown: string } {
  if (result.decision === 'deny' || result.permission === 'deny') return { decision: 'deny' };
  if (!features.hostPermission || result.permission === undefined) {
    return {
      unknown:
        'decision: the driver reports no host permission (features.hostPermission), so allow, ask and a host deny cannot be told apart',
    };
  }
  return { decision: result.permission === 'ask' ? 'ask' : 'allow' };
}

const OUTCOME_MEMBERS = [
  'input',
  'messages',
  'result',
  'flow',
  'injections',
  'continuationInstructions',
  'continuationRemaining',
] as const;

/** Compares every key of `expected` with what the driver reported; `label` prefixes messages. */
export function compareOutcome(
  expected: InteropOutcome,
  observation: Pick<InteropObservation, 'result' | 'features'>,
  rule: InteropPlan['rule'],
  label = '',
): { findings: Finding[]; untested: string[] } {
  const { result, features } = observation;
  const findings: Finding[] = [];
  const untested: string[] = [];
  const decision = reportedDecision(result, features);
  if ('unknown' in decision) untested.push(decision.unknown);
  else if (!features.outcomes && expected.flow === 'stop' && result.decision === 'deny') {
    // Before v1.3 a driver had only continue and deny for a call that did not go ahead.
    untested.push(
      'decision: the driver does not announce features.outcomes (driver protocol v1.3), before which a flow stop may be reported as deny',
    );
  } else if (decision.decision !== expected.decision) {
    findings.push(
      finding(rule, `${label}decision: expected ${expected.decision}, the call came to ${decision.decision}`),
    );
  }
  if (!features.execution || result.executed === undefined) {
    untested.push('executed: the driver does not report whether the operation ran (features.execution)');
  } else if (result.executed !== expected.executed) {
    findings.push(
      finding(
        rule,
        `${label}executed: expected ${expected.executed}, the driver reported ${result.executed}`,
      ),
    );
  }
  const asked = OUTCOME_MEMBERS.filter((k) => k in expected);
  if (!features.outcomes) {
    if (asked.length > 0) {
      untested.push(
        `${asked.join(', ')}: the driver does not announce features.outcomes (driver protocol v1.3), so it reports none of them`,
      );
    }
    return { findings, untested };
  }
  const reported = result as unknown as Record<string, JsonValue | undefined>;
  for (const key of asked) {
    const want = (expected as Record<string, JsonValue | undefined>)[key];
    const got = reported[key];
    if (!isDeepStrictEqual(want, got)) {
      findings.push(
        finding(rule, `${label}${key}: expected ${shown(want)}, the driver reported ${shown(got)}`),
      );
    }
  }
  return { findings, untested };
}

/** A response rejected whole: an operational failure of its backend, nothing of it published, fail-closed. */
export function compareRejection(
  plan: InteropPlan,
  observation: InteropObservation,
): { findings: Finding[]; untested: string[] } {
  const { result, features, backendId } = observation;
  const rule = plan.rule;
  const findings: Finding[] = [];
  const untested: string[] = [];
  const entry = result.audit.find((a) => a.backendId === backendId && a.mode !== 'observe');
  if (entry === undefined) {
    findings.push(finding(rule, "the audit has no entry for the scenario's backend"));
  } else if (entry.outcome !== 'operational-failure') {
    findings.push(
      finding(
        rule,
        `the response must be rejected whole as an operational failure; the audit says ${entry.outcome}`,
      ),
    );
  } else if (entry.failureClass === undefined) {
    untested.push(
      'failure class: the driver reports none, so the rejection cannot be told from a transport failure',
    );
  } else if (!REJECTION_CLASSES.includes(entry.failureClass)) {
    findings.push(
      finding(
        rule,
        `the rejection is classed ${entry.failureClass}, not a rejected response (${REJECTION_CLASSES.join(', ')})`,
      ),
    );
  }
  // Run fail-closed: the policy turns the rejection into a synthetic deny.
  if (result.decision !== 'deny' || !result.synthetic) {
    findings.push(
      finding(
        rule,
        `a rejected response under fail-closed is a synthetic deny; the call came to ${result.decision}${result.synthetic ? ' (synthetic)' : ' (not synthetic)'}`,
      ),
    );
  }
  if (features.execution && result.executed === true) {
    findings.push(finding(rule, 'the operation ran although the response was rejected under fail-closed'));
  }
  if (!features.outcomes) {
    untested.push(
      'nothing published: the driver does not announce features.outcomes (driver protocol v1.3), so messages, input and result are not reported',
    );
    return { findings, untested };
  }
  const published: string[] = [];
  if ((result.messages ?? []).length > 0) published.push(`messages ${shown(result.messages)}`);
  if ('result' in result) published.push(`result ${shown(result.result)}`);
  if ((result.injections ?? []).length > 0) published.push(`injections ${shown(result.injections)}`);
  if ((result.continuationInstructions ?? []).length > 0) {
    published.push(`continuation instructions ${shown(result.continuationInstructions)}`);
  }
  if (plan.originalInput !== undefined && !isDeepStrictEqual(result.input, plan.originalInput)) {
    published.push(`input ${shown(result.input)} instead of ${shown(plan.originalInput)}`);
  }
  if (published.length > 0) {
    findings.push(finding(rule, `a response rejected whole published ${published.join(', ')}`));
  }
  return { findings, untested };
}

/** Applicability and the wire: every interceptor asked as planned, with the authority it needs. */
function wireVerdict(plan: InteropPlan, observation: InteropObservation): InteropVerdict | undefined {
  for (const [i, link] of plan.prefixes.entries()) {
    const request = observation.prefixRequests[i];
    if (request === undefined) {
      return {
        findings: [
          finding(
            'composition.chain',
            `the interceptor that makes ${link.makes} (number ${i + 1} of the chain) was not asked`,
          ),
        ],
        untested: [],
        notes: [],
      };
    }
    const capabilities = isJsonObject(request.capabilities) ? request.capabilities : undefined;
    const lacking = capabilityDifference(
      plan.capabilities,
      capabilities,
      [link.effect],
      `the request of the interceptor that makes ${link.makes}`,
    );
    if (lacking !== undefined) return { findings: [], untested: [lacking], notes: [] };
  }
  const { request } = observation;
  if (!plan.asked) {
    if (request !== undefined) {
      return {
        findings: [
          finding('composition.chain', "the scenario's backend was asked after an accepted flow stop"),
        ],
        untested: [],
        notes: [],
      };
    }
    return undefined;
  }
  if (request === undefined) {
    if (plan.hostPermission === 'deny') {
      return {
        findings: [],
        untested: [
          "the harness did not ask the scenario's backend under a host deny, so its response was never applied",
        ],
        notes: [],
      };
    }
    return {
      findings: [finding('composition.chain', "the scenario's backend was not asked")],
      untested: [],
      notes: [],
    };
  }
  const capabilities = isJsonObject(request.capabilities) ? request.capabilities : undefined;
  const lacking = capabilityDifference(plan.capabilities, capabilities, plan.effects);
  if (lacking !== undefined) return { findings: [], untested: [lacking], notes: [] };
  return undefined;
}

/** The state the scenario's backend received against the scenario's, provenance aside. */
function stateFindings(plan: InteropPlan, request: JsonObject | undefined, notes: string[]): Finding[] {
  if (plan.state === undefined || request === undefined) return [];
  if (!('state' in request)) {
    notes.push(
      'the harness sent no params.state (optional in the draft): the incoming state is shown by the outcome only',
    );
    return [];
  }
  const hostDeny = plan.hostPermission === 'deny';
  const want = comparableState(plan.state as unknown as JsonValue, hostDeny);
  const got = comparableState(request.state, hostDeny);
  if (hostDeny && isJsonObject(request.state) && request.state.permission !== 'deny') {
    notes.push(
      `the incoming deny is the host's own permission here; the harness sent params.state.permission ${shown(request.state.permission)}, which is not judged`,
    );
  }
  if (isDeepStrictEqual(want, got)) return [];
  return [
    finding(
      'composition.chain',
      `the scenario's backend received params.state ${shown(got)}, the earlier interceptors made ${shown(want)}`,
    ),
  ];
}

/** The whole verdict of one scenario run. */
export function judgeScenario(plan: InteropPlan, observation: InteropObservation): InteropVerdict {
  const wire = wireVerdict(plan, observation);
  if (wire !== undefined) return wire;
  const notes: string[] = [];
  const state = stateFindings(plan, observation.request, notes);
  const { expect } = plan;
  if (expect.kind === 'outcome') {
    const outcome = compareOutcome(expect.outcome, observation, plan.rule);
    return { findings: [...state, ...outcome.findings], untested: outcome.untested, notes };
  }
  const rejected = compareRejection(plan, observation);
  if (expect.host !== undefined && rejected.findings.length > 0) {
    // The host's own input schema may refuse execution after the SDK accepted (CONTRACT.md).
    const host = compareOutcome(expect.host, observation, plan.rule, 'host outcome: ');
    if (host.findings.length === 0) {
      notes.push(
        "accepted the host input schema's outcome (hostExpected) instead of a whole rejection, as the scenario allows",
      );
      return { findings: state, untested: host.untested, notes };
    }
    // Neither: the response is valid AHP; the invalid input is the authors' host's own rule.
    const shownRejection = rejected.findings.map((f) => f.message).join('; ');
    return {
      findings: state,
      untested: [
        `the scenario tests the host's own input schema (hostExpected), not AHP, and this harness has none: it neither rejected the response nor refused execution by one (${shownRejection})`,
      ],
      notes,
    };
  }
  return { findings: [...state, ...rejected.findings], untested: rejected.untested, notes };
}
