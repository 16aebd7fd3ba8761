/**
 * Judges single observations: what is wrong with one reply (or with the silence after one
 * notification), each finding tagged with the requirement it evidences. Pure functions: the
 * verdict of a whole case is built from these in `verdict.ts`.
 */
import { isJsonObject, type JsonValue } from '../../protocol/json.js';
import { checkResponseEnvelope, idsEqual } from '../../protocol/jsonrpc.js';
import { checkInterceptResult } from '../../protocol/messages.js';
import type { Effect, JsonRpcErrorObject } from '../../protocol/wire-types.js';
import type { NotificationObservation, RequestObservation, TransportFailure } from './session.js';

/**
 * How far an exchange got before a finding: no usable reply at all (`transport`), a reply that
 * is not a valid JSON-RPC response to this request (`envelope`), a response of the wrong kind (an
 * error where a decision was due, or the reverse: `outcome`), or a well-formed result whose
 * content breaks a rule (`content`). A case is kept from judging only by findings that stop
 * short of what it reads (see `blocks` in `verdict.ts`).
 */
export type FindingStage = 'transport' | 'envelope' | 'outcome' | 'content';

/** One thing the backend did wrong, tied to the requirement it breaks. */
export interface Finding {
  /** The requirement this evidences; undefined when nothing about the backend's conformance follows (we could not reach it). */
  requirement: string | undefined;
  /** The step, counted from 1. */
  step: number;
  message: string;
  stage: FindingStage;
  /** Output the backend wrote before this step and that this step only reported (not its own reply). */
  ambient?: true;
}

/**
 * Which requirement each transport failure code evidences. Framing, stdout discipline and the
 * per_event exit belong to the stdio binding; statuses and media types to the HTTP binding; bytes
 * that are not one UTF-8 JSON value to the JSON-RPC rule; a missed deadline to liveness
 * (answering a request at all). Launch, auth and our own close say nothing about conformance.
 */
export const TRANSPORT_CODE_REQUIREMENTS: Readonly<Record<string, string | undefined>> = {
  'stdio.framing.invalid-utf8': 'AHP-RPC-001',
  'stdio.framing.not-json': 'AHP-STDIO-001',
  'stdio.framing.multi-line': 'AHP-STDIO-001',
  'stdio.framing.empty-line': 'AHP-STDIO-001',
  'stdio.framing.frame-too-large': 'AHP-STDIO-001',
  'stdio.unsolicited-output': 'AHP-STDIO-001',
  'stdio.extra-reply': 'AHP-STDIO-001',
  'stdio.no-reply': 'AHP-STDIO-001',
  'stdio.exit-nonzero': 'AHP-STDIO-001',
  'stdio.signal': 'AHP-STDIO-001',
  'stdio.exit-before-reply': 'AHP-STDIO-001',
  'stdio.stdout-closed': 'AHP-STDIO-001',
  'stdio.write-failed': 'AHP-STDIO-001',
  'stdio.launch-failed': undefined,
  'stdio.closed': undefined,
  'http.status': 'AHP-HTTP-001',
  'http.redirect': 'AHP-HTTP-001',
  'http.media-type': 'AHP-HTTP-001',
  'http.notify-body': 'AHP-HTTP-001',
  'http.connection-refused': 'AHP-HTTP-001',
  'http.connection-reset': 'AHP-HTTP-001',
  'http.connection-failed': 'AHP-HTTP-001',
  'http.body-not-utf8': 'AHP-RPC-001',
  'http.body-not-json': 'AHP-RPC-001',
  'http.body-too-large': 'AHP-RPC-001',
  'http.closed': undefined,
  deadline: 'AHP-RPC-002',
};

/** Failure codes that report output written before the step, not the step's own reply. */
const AMBIENT_CODES = new Set(['stdio.unsolicited-output']);

/** The only advertisement the suites make: a Tool Interception harness's minimum. */
export const DENY_ONLY = { effects: ['deny'] };

function transportFinding(step: number, failure: TransportFailure): Finding {
  return {
    requirement: Object.hasOwn(TRANSPORT_CODE_REQUIREMENTS, failure.code)
      ? TRANSPORT_CODE_REQUIREMENTS[failure.code]
      : undefined,
    step: step + 1,
    message: `${failure.code}: ${failure.detail}`,
    stage: 'transport',
    ...(AMBIENT_CODES.has(failure.code) ? { ambient: true as const } : {}),
  };
}

/** The envelope of a reply: findings about it, plus the result or error when it has one. */
function envelope(
  obs: RequestObservation,
):
  | { findings: Finding[]; result?: JsonValue; error?: JsonRpcErrorObject }
  | { findings: Finding[]; result?: undefined; error?: undefined } {
  const step = obs.step + 1;
  if (!obs.reply.ok) return { findings: [transportFinding(obs.step, obs.reply.failure)] };
  const env = checkResponseEnvelope(obs.reply.message);
  if (env.kind === 'invalid') {
    return {
      findings: env.violations.map((v) => ({
        requirement: v.requirement,
        step,
        message: `${v.path}: ${v.message}`,
        stage: 'envelope' as const,
      })),
    };
  }
  const findings: Finding[] = [];
  if (obs.frame.id !== undefined && !idsEqual(env.id, obs.frame.id)) {
    findings.push({
      requirement: 'AHP-RPC-001',
      step,
      message: `the reply id ${JSON.stringify(env.id)} is not the request id ${JSON.stringify(obs.frame.id)}`,
      stage: 'envelope',
    });
  }
  return env.kind === 'result' ? { findings, result: env.result } : { findings, error: env.error };
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

/** What a decision reply showed: findings, the effects when valid, and its signature when it had an effect list. */
export interface DecisionOutcome {
  findings: Finding[];
  effects?: Effect[];
  signature?: string;
}

/** Judges a reply that must carry a decision for a valid draft `tool.before` advertising only deny. */
export function decisionFindings(obs: RequestObservation): DecisionOutcome {
  const step = obs.step + 1;
  const env = envelope(obs);
  const findings = [...env.findings];
  if (env.error) {
    findings.push({
      requirement: 'AHP-DEC-001',
      step,
      message: `a valid draft tool.before request got a JSON-RPC error (${env.error.code}: ${env.error.message}), not a decision`,
      stage: 'outcome',
    });
  }
  if (env.result === undefined) return { findings };
  const signature = rawDecisionSignature(env.result);
  const withSignature = signature === undefined ? {} : { signature };
  const check = checkInterceptResult(env.result, {
    protocolVersion: 'draft',
    eventType: 'tool.before',
    capabilities: DENY_ONLY,
  });
  if (!check.ok) {
    for (const v of check.violations) {
      findings.push({
        requirement: v.requirement,
        step,
        message: `${v.path}: ${v.message}`,
        stage: 'content',
      });
    }
    return { findings, ...withSignature };
  }
  // The Tool Interception profile's backend rule: with only deny advertised, [] or one deny.
  // Every member here already passed the advertisement check, so more than one means several denies.
  if (check.effects.length > 1) {
    findings.push({
      requirement: 'AHP-DEC-001',
      step,
      message: `with only deny advertised the result must hold [] or one deny, not ${check.effects.length} effects`,
      stage: 'content',
    });
  }
  return findings.length > 0
    ? { findings, ...withSignature }
    : { findings, effects: check.effects, ...withSignature };
}

/** Judges a reply that must be a JSON-RPC error; a success is a finding against `requirement`. */
export function errorFindings(
  obs: RequestObservation,
  requirement: string,
  what: string,
): { findings: Finding[]; error?: JsonRpcErrorObject } {
  const env = envelope(obs);
  const findings = [...env.findings];
  if (env.result !== undefined) {
    findings.push({
      requirement,
      step: obs.step + 1,
      message: `${what} was answered with a result instead of a JSON-RPC error`,
      stage: 'outcome',
    });
  }
  return env.error && findings.length === 0 ? { findings, error: env.error } : { findings };
}

function isJsonRpcResponse(raw: Uint8Array): boolean {
  try {
    const value = JSON.parse(Buffer.from(raw).toString('utf8')) as JsonValue;
    return isJsonObject(value) && (Object.hasOwn(value, 'result') || Object.hasOwn(value, 'error'));
  } catch {
    return false;
  }
}

/**
 * Judges the silence after a notification (AHP-RPC-002: no reply of any kind). Output a
 * persistent backend wrote before the next step counts as an answer to the notification.
 */
export function silenceFindings(obs: NotificationObservation): Finding[] {
  const step = obs.step + 1;
  const answered = (message: string): Finding => ({
    requirement: 'AHP-RPC-002',
    step,
    message,
    stage: 'outcome',
  });
  const out: Finding[] = [];
  const outcome = obs.outcome;
  if (obs.via === 'request') {
    // per_event stdio: one process got the notification; anything it wrote is an answer, and
    // its exit status cannot matter (an observe delivery never affects execution).
    if (outcome.ok) return [answered('the backend answered a hooks/observe notification')];
    const { code } = outcome.failure;
    const wrote = obs.inFrames.length > 0 || ('raw' in outcome && outcome.raw !== undefined);
    if (wrote) return [answered(`the backend wrote output in answer to a notification (${code})`)];
    if (code === 'deadline') {
      return [
        {
          requirement: 'AHP-STDIO-001',
          step,
          message: 'the per_event backend did not exit within the deadline after the notification',
          stage: 'transport',
        },
      ];
    }
    if (['stdio.no-reply', 'stdio.exit-nonzero', 'stdio.signal'].includes(code)) return [];
    return [transportFinding(obs.step, outcome.failure)];
  }
  if (!outcome.ok) {
    out.push(transportFinding(obs.step, outcome.failure));
    if (obs.inFrames.some(isJsonRpcResponse)) {
      out.push(answered('the backend answered a hooks/observe notification with a JSON-RPC response body'));
    }
  } else if (obs.inFrames.length > 0) {
    out.push(answered(`the backend wrote ${obs.inFrames.length} frame(s) on stdout after a notification`));
  }
  return out;
}
