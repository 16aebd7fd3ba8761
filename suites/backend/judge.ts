/**
 * Judges single observations: what is wrong with one reply (or with the silence after one
 * notification), each fault tagged with the requirement and rule it breaks. Pure functions: the
 * verdict of a whole case is built from these in `verdict.ts`.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../protocol/json.js';
import { checkResponseEnvelope, idsEqual } from '../../protocol/jsonrpc.js';
import { checkInterceptResult } from '../../protocol/messages.js';
import type { Capabilities, Effect, JsonRpcErrorObject } from '../../protocol/wire-types.js';
import { DENY_ONLY } from './frames.js';
import { stablePath, transportFault, violationRule, type StepFault } from './faults.js';
import { RULES, type Rule } from './rules.js';
import type { NotificationObservation, RequestObservation } from './frame-run.js';

/** A request the backend must refuse with an error: what it is, in words, and the rule of refusing it. */
export interface Refusal {
  what: string;
  rule: Rule;
}

/** The envelope of a reply: faults about it, plus the result or error when it has one. */
function envelope(obs: RequestObservation): {
  faults: StepFault[];
  result?: JsonValue;
  error?: JsonRpcErrorObject;
} {
  const step = obs.step + 1;
  if (!obs.reply.ok) return { faults: [transportFault(obs.step, obs.reply.failure)] };
  const env = checkResponseEnvelope(obs.reply.message);
  if (env.kind === 'invalid') {
    return {
      faults: env.violations.map((v) => ({
        requirement: v.requirement,
        step,
        stage: 'envelope' as const,
        rule: violationRule(v.requirement),
        way: stablePath(v.path),
        summary: violationRule(v.requirement).summary,
        message: `${v.path}: ${v.message}`,
      })),
    };
  }
  const faults: StepFault[] = [];
  if (obs.frame.id !== undefined && !idsEqual(env.id, obs.frame.id)) {
    const due =
      obs.frame.id === null
        ? 'null, the id of a reply to a message whose id could not be read'
        : `the request id ${JSON.stringify(obs.frame.id)}`;
    faults.push({
      requirement: 'AHP-RPC-001',
      step,
      stage: 'envelope',
      rule: RULES.jsonRpcResponse,
      way: 'id',
      summary: 'a reply does not carry the id of its request',
      message: `the reply id ${JSON.stringify(env.id)} is not ${due}`,
    });
  }
  return env.kind === 'result' ? { faults, result: env.result } : { faults, error: env.error };
}

/** Judges a reply that may be any JSON-RPC response: only its transport and envelope. */
export function replyFaults(obs: RequestObservation): StepFault[] {
  return envelope(obs).faults;
}

/**
 * What must repeat between two decisions: the effect types in order, and the code of a deny. Read
 * from the raw result, so that two replies with the same defect still compare.
 */
export function rawDecisionSignature(result: JsonValue): string | undefined {
  if (!isJsonObject(result) || !Array.isArray(result.effects)) return undefined;
  if (result.effects.length === 0) return '[]';
  return result.effects
    .map((e) => {
      if (!isJsonObject(e)) return JSON.stringify(e);
      const type = typeof e.type === 'string' ? e.type : JSON.stringify(e.type ?? null);
      return type === 'deny' && typeof e.code === 'string' ? `deny(${e.code})` : type;
    })
    .join(', ');
}

/** The type of each effect a result returned, valid or not (`[]` when it has no effect list). */
export function returnedEffectTypes(result: JsonValue): string[] {
  if (!isJsonObject(result) || !Array.isArray(result.effects)) return [];
  return result.effects.flatMap((e) => (isJsonObject(e) && typeof e.type === 'string' ? [e.type] : []));
}

/**
 * What a decision reply showed: faults, the effects when valid, its signature when it had an
 * effect list, and the types it returned.
 */
export interface DecisionOutcome {
  faults: StepFault[];
  effects?: Effect[];
  signature?: string;
  returnedTypes?: string[];
}

/**
 * Judges a reply that must carry a decision for a valid draft `tool.before` that advertised
 * `capabilities` (only deny unless it is the modify path's request).
 */
export function decisionFaults(
  obs: RequestObservation,
  capabilities: JsonObject = DENY_ONLY,
): DecisionOutcome {
  const step = obs.step + 1;
  const env = envelope(obs);
  const faults = [...env.faults];
  if (env.error) {
    faults.push({
      requirement: 'AHP-DEC-001',
      step,
      stage: 'outcome',
      rule: RULES.effectList,
      way: 'json-rpc-error',
      summary: 'a valid tool.before got a JSON-RPC error instead of a decision',
      message: `a valid draft tool.before request got a JSON-RPC error (${env.error.code}: ${env.error.message}), not a decision`,
    });
  }
  if (env.result === undefined) return { faults };
  const signature = rawDecisionSignature(env.result);
  const withSignature = {
    ...(signature === undefined ? {} : { signature }),
    returnedTypes: returnedEffectTypes(env.result),
  };
  const check = checkInterceptResult(env.result, {
    protocolVersion: 'draft',
    eventType: 'tool.before',
    capabilities: capabilities as unknown as Capabilities,
  });
  if (!check.ok) {
    for (const v of check.violations) {
      const rule = violationRule(v.requirement);
      faults.push({
        requirement: v.requirement,
        step,
        stage: 'content',
        rule,
        way: stablePath(v.path),
        summary: rule.summary,
        message: `${v.path}: ${v.message}`,
      });
    }
    return { faults, ...withSignature };
  }
  // The Tool Interception profile's backend rule: with only deny advertised, [] or one deny.
  // Every member here already passed the advertisement check, so more than one means several denies.
  if (capabilities === DENY_ONLY && check.effects.length > 1) {
    faults.push({
      requirement: 'AHP-DEC-001',
      step,
      stage: 'content',
      rule: RULES.effectList,
      way: 'several-denies',
      summary: 'with only deny advertised, a result holds more than one deny',
      message: `with only deny advertised the result must hold [] or one deny, not ${check.effects.length} effects`,
    });
  }
  return faults.length > 0
    ? { faults, ...withSignature }
    : { faults, effects: check.effects, ...withSignature };
}

/** Judges a reply that must be a JSON-RPC error; a success is a fault of `requirement` under the refusal's rule. */
export function errorFaults(
  obs: RequestObservation,
  requirement: string,
  refusal: Refusal,
): { faults: StepFault[]; error?: JsonRpcErrorObject } {
  const env = envelope(obs);
  const faults = [...env.faults];
  if (env.result !== undefined) {
    faults.push({
      requirement,
      step: obs.step + 1,
      stage: 'outcome',
      rule: refusal.rule,
      way: 'answered-with-result',
      summary: `${refusal.rule.summary}: it was answered with a result`,
      message: `${refusal.what} was answered with a result instead of a JSON-RPC error`,
    });
  }
  return env.error && faults.length === 0 ? { faults, error: env.error } : { faults };
}

/** True for bytes that hold one JSON-RPC response (a result or an error). */
export function isJsonRpcResponse(raw: Uint8Array): boolean {
  try {
    const value = JSON.parse(Buffer.from(raw).toString('utf8')) as JsonValue;
    return isJsonObject(value) && (Object.hasOwn(value, 'result') || Object.hasOwn(value, 'error'));
  } catch {
    return false;
  }
}

function answered(step: number, way: string, message: string): StepFault {
  return {
    requirement: 'AHP-RPC-002',
    step,
    stage: 'outcome',
    rule: RULES.notificationSilence,
    way,
    summary: RULES.notificationSilence.summary,
    message,
  };
}

/**
 * Judges the silence after a notification (AHP-RPC-002: no reply of any kind). Only a JSON-RPC
 * response is a reply: lines that are no JSON-RPC message are noise (`noise.ts`), whenever they
 * arrive, and never count against the notification. A notification the backend cannot process
 * (`unprocessable`) is not an accepted one, which is all the HTTP binding asks 202 or 204 of: over
 * HTTP any status is then taken, and only a JSON-RPC response in the body is a reply.
 */
export function silenceFaults(obs: NotificationObservation, unprocessable = false): StepFault[] {
  const step = obs.step + 1;
  const outcome = obs.outcome;
  if (obs.via === 'request') {
    // per_event stdio: one process got the notification; any message it wrote is an answer, and
    // its exit status cannot matter (an observe delivery never affects execution).
    if (outcome.ok)
      return [answered(step, 'reply', 'the backend answered the notification with a message on stdout')];
    const { code } = outcome.failure;
    const wrote = obs.inFrames.length > 0 || ('raw' in outcome && outcome.raw !== undefined);
    if (wrote) {
      return [answered(step, 'output', `the backend wrote output in answer to a notification (${code})`)];
    }
    if (code === 'deadline') {
      return [
        {
          requirement: 'AHP-STDIO-001',
          step,
          stage: 'transport',
          rule: RULES.stdioLifecycle,
          way: 'no-exit-after-notification',
          summary: 'a per_event backend did not exit after a notification',
          message: 'the per_event backend did not exit within the deadline after the notification',
        },
      ];
    }
    if (['stdio.no-reply', 'stdio.exit-nonzero', 'stdio.signal'].includes(code)) return [];
    return [transportFault(obs.step, outcome.failure)];
  }
  const out: StepFault[] = [];
  const replies = obs.inFrames.filter(isJsonRpcResponse).length;
  if (!outcome.ok) {
    if (!(unprocessable && outcome.failure.code === 'http.status')) {
      out.push(transportFault(obs.step, outcome.failure));
    }
    if (replies > 0) {
      out.push(
        answered(
          step,
          'response-body',
          'the backend answered the notification with a JSON-RPC response body',
        ),
      );
    }
  } else if (replies > 0) {
    out.push(
      answered(
        step,
        'reply',
        `the backend wrote ${replies} JSON-RPC response(s) on stdout after a notification`,
      ),
    );
  }
  return out;
}
