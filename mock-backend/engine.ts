/**
 * The mock backend's pure engine: one inbound frame in, actions + next state + records out.
 * Shells (stdio process, HTTP server, msw handlers) only turn bytes into frames and carry out
 * actions, so one scenario means the same thing on every transport.
 */
import { countAttempt, NO_ATTEMPTS } from './attempt-counts.js';
import { decodeFrame, type DecodedFrame, type FrameViolation } from './engine-inbound.js';
import { planContext, planDelivery } from './engine-behaviours.js';
import { findRule } from './engine-matching.js';
import type {
  Action,
  Behaviour,
  EngineState,
  InboundFrame,
  Instant,
  RecordEntry,
  Scenario,
  Transport,
} from './model.js';
import { prngState } from './prng.js';
import { uploadFramingProblems } from '../protocol/content-upload.js';
import type { Recorded } from './recorded-delivery.js';
import { recordAction } from './recording.js';

/** The result of one engine step: what to carry out, the next state, and what to record. */
export interface StepResult {
  actions: Action[];
  state: EngineState;
  /** The delivery (see `entriesOf` for its public entries), or entries built already. */
  recorded: Recorded;
}

/** The state before the first frame (and after a reset). */
export function initialState(scenario: Scenario): EngineState {
  return {
    deliveries: 0,
    attempts: NO_ATTEMPTS,
    fired: scenario.rules.map(() => 0),
    prng: prngState(scenario.seed ?? 0),
  };
}

/**
 * Interprets one inbound frame: a pure function of the scenario, the state and the frame (its
 * arrival time included). The given values are never changed; the same arguments give equal
 * results. Never throws: anything unexpected becomes an `engine-error` violation.
 */
export function step(scenario: Scenario, state: EngineState, inbound: InboundFrame): StepResult {
  try {
    return stepFrame(scenario, state, inbound);
  } catch (e) {
    // A safety net for hand-built scenarios that bypassed the parser; parsed scenarios never get here.
    return engineError(state, inbound, e);
  }
}

interface Decision {
  behaviour: Behaviour;
  rule: number | null;
  planned: boolean;
}

function stepFrame(scenario: Scenario, state: EngineState, inbound: InboundFrame): StepResult {
  const delivery = state.deliveries + 1;
  const frame = decodeFrame(inbound.bytes, inbound.fault);
  const { attempts, attempt } = attemptOf(state.attempts, frame);
  // The decoded frame is this step's own: gates and planning add their findings to its list.
  // An upload's body is octets, not a JSON-RPC frame: only its framing is judged (uploadGate).
  const violations: FrameViolation[] = isUploadFrame(scenario, inbound) ? [] : frame.violations;
  const decision =
    uploadGate(scenario, inbound, violations) ??
    httpGate(scenario, inbound, violations) ??
    decide(scenario, frame, state.fired, { attempt, delivery, inbound });
  // Rule counters are copied only when a rule fires: most frames of a long run fire none.
  let fired = state.fired;
  if (decision.rule !== null) {
    fired = scenario.rules.map((_, i) => state.fired[i] ?? 0);
    fired[decision.rule] = (fired[decision.rule] ?? 0) + 1;
  }
  const ctx = planContext(inbound.transport, frame, attempt, state.prng, violations, {
    bytes: inbound.bytes,
    delivery,
  });
  const { actions } = planDelivery(decision.behaviour, ctx);
  return {
    actions,
    state: { deliveries: delivery, attempts, fired, prng: ctx.prng },
    recorded: {
      delivery,
      transport: inbound.transport,
      connectionId: inbound.connectionId,
      monotonic: inbound.at.monotonic,
      wall: inbound.at.wall,
      bytes: inbound.bytes,
      fault: inbound.fault,
      http: inbound.http,
      attempt,
      rule: decision.rule,
      planned: decision.planned,
      decided: decision.behaviour,
      prng: state.prng,
      violations: violations.length === 0 ? NO_VIOLATIONS : violations,
    },
  };
}

/**
 * The attempt number of a frame's event id, counted per method and event id (retries reuse both;
 * an observe of the same event does not count), and the counts with it.
 */
function attemptOf(
  attempts: EngineState['attempts'],
  frame: DecodedFrame,
): { attempts: EngineState['attempts']; attempt: number } {
  if (frame.kind === 'unparseable' || frame.method === undefined || frame.eventId === undefined) {
    return { attempts, attempt: 1 };
  }
  const counted = countAttempt(attempts, frame.method, frame.eventId);
  return { attempts: counted.counts, attempt: counted.attempt };
}

/** Shared by every delivery without violations (most of them), instead of an empty array each. */
const NO_VIOLATIONS: readonly FrameViolation[] = Object.freeze([]);

/** True for a frame an upload endpoint receives (scenario `upload`, over HTTP). */
function isUploadFrame(scenario: Scenario, inbound: InboundFrame): boolean {
  return scenario.upload !== undefined && inbound.transport !== 'stdio' && inbound.http !== undefined;
}

/**
 * An upload endpoint's answer (scenario `upload`): the framing is checked first, and a request
 * framed wrong is answered 400 as content-upload.md's status table says; no rule applies.
 */
function uploadGate(
  scenario: Scenario,
  inbound: InboundFrame,
  violations: FrameViolation[],
): Decision | undefined {
  if (!isUploadFrame(scenario, inbound) || !scenario.upload || !inbound.http) return undefined;
  const problems = uploadFramingProblems({
    method: inbound.http.method,
    headers: inbound.http.headers,
    body: inbound.bytes,
  });
  if (problems.length === 0) return { behaviour: scenario.upload.answer, rule: null, planned: true };
  for (const message of problems) violations.push({ code: 'upload-framing', message });
  return { behaviour: UPLOAD_BAD_FRAMING, rule: null, planned: true };
}

const UPLOAD_BAD_FRAMING: Behaviour = Object.freeze({
  kind: 'http-status',
  status: 400,
  body: { text: 'upload framing rejected\n' },
});

/** Scenario-level HTTP checks that answer before any rule: method, media type, bearer token. */
function httpGate(
  scenario: Scenario,
  inbound: InboundFrame,
  violations: FrameViolation[],
): Decision | undefined {
  if (inbound.transport === 'stdio' || !inbound.http) return undefined;
  const { method, headers } = inbound.http;
  if (method !== 'POST' && method.toUpperCase() !== 'POST') {
    violations.push({ code: 'http-method', message: `AHP messages are POSTed; the request used ${method}` });
    return {
      behaviour: { kind: 'http-status', status: 405, headers: { allow: 'POST' } },
      rule: null,
      planned: false,
    };
  }
  const given = headers['content-type'];
  // The usual value is exactly this: no split, trim and lower-casing to find it.
  const mediaType = given === 'application/json' ? given : (given ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    violations.push({
      code: 'http-content-type',
      message: `the request body must be sent as application/json, not ${mediaType ? `'${mediaType}'` : 'without a content type'}`,
    });
  }
  const bearer = scenario.http?.requireBearer;
  if (!bearer) return undefined;
  const auth = headers.authorization;
  const presented = auth === undefined ? undefined : /^bearer +(.*)$/i.exec(auth.trim())?.[1];
  if (presented === bearer.token) return undefined;
  violations.push(
    auth === undefined
      ? { code: 'auth-missing', message: 'the request carried no Authorization header' }
      : { code: 'auth-wrong', message: 'the request carried a bearer token other than the required one' },
  );
  const behaviour: Behaviour = { kind: 'http-unauthorized' };
  if (bearer.challenge !== undefined) behaviour.challenge = bearer.challenge;
  return { behaviour, rule: null, planned: true };
}

// The default strategies, shared by every record that uses them (as a rule's behaviour is).
const SILENT: Behaviour = Object.freeze({ kind: 'silent' });
const RESPOND: Behaviour = Object.freeze({ kind: 'respond' });

function decide(
  scenario: Scenario,
  frame: DecodedFrame,
  fired: readonly number[],
  facts: { attempt: number; delivery: number; inbound: InboundFrame },
): Decision {
  if (frame.kind === 'unparseable') {
    const code = frame.layer === 'envelope' ? -32600 : -32700;
    return { behaviour: scenario.unparseable ?? { kind: 'rpc-error', code }, rule: null, planned: false };
  }
  const rule = findRule(scenario.rules, fired, {
    frame,
    attempt: facts.attempt,
    delivery: facts.delivery,
    transport: facts.inbound.transport,
  });
  if (rule !== null) {
    return { behaviour: (scenario.rules[rule] as { behaviour: Behaviour }).behaviour, rule, planned: true };
  }
  if (frame.kind === 'notification') {
    return { behaviour: scenario.notifications ?? SILENT, rule: null, planned: false };
  }
  return { behaviour: scenario.unmatched ?? RESPOND, rule: null, planned: false };
}

function engineError(state: EngineState, inbound: InboundFrame, e: unknown): StepResult {
  const base = {
    delivery: state.deliveries + 1,
    transport: inbound.transport,
    connectionId: inbound.connectionId,
  };
  const message = `mock-backend: the engine failed on this frame (${e instanceof Error ? e.message : String(e)})`;
  const actions: Action[] =
    inbound.transport === 'stdio'
      ? [
          { type: 'log', afterMs: 0, text: message },
          { type: 'end', afterMs: 0 },
        ]
      : [
          { type: 'head', afterMs: 0, status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' } },
          { type: 'write', afterMs: 0, bytes: new TextEncoder().encode(`${message}\n`) },
          { type: 'end', afterMs: 0 },
        ];
  const recorded: RecordEntry[] = [
    { type: 'violation', ...base, code: 'engine-error', message },
    ...actions.map((a): RecordEntry => ({ type: 'outbound', ...base, action: recordAction(a) })),
  ];
  return { actions, state: { ...state, deliveries: base.delivery }, recorded };
}

/** Process start (stdio): the banner, or a refusal to start (message on stderr, then exit). Never throws. */
export function start(
  scenario: Scenario,
  state: EngineState,
  context: { transport: Transport; connectionId: string; at: Instant },
): StepResult {
  if (context.transport !== 'stdio') return { actions: [], state, recorded: [] };
  const settings = scenario.process ?? {};
  const actions: Action[] = [];
  if (settings.refuseToStart) {
    const text = settings.refuseToStart.message ?? 'mock-backend: refusing to start (scenario setting)';
    actions.push(
      { type: 'log', afterMs: 0, text },
      { type: 'exit', afterMs: 0, code: settings.refuseToStart.exitCode },
    );
  } else if (settings.banner !== undefined) {
    actions.push({ type: 'write', afterMs: 0, bytes: new TextEncoder().encode(`${settings.banner}\n`) });
  }
  const recorded: RecordEntry[] = actions.map((a) => ({
    type: 'outbound',
    delivery: 0,
    transport: context.transport,
    connectionId: context.connectionId,
    action: recordAction(a),
  }));
  return { actions, state, recorded };
}
