/**
 * The mock backend's pure engine: one inbound frame in, actions + next state + records out.
 * Shells (stdio process, HTTP server, msw handlers) only turn bytes into frames and carry out
 * actions, so one scenario means the same thing on every transport.
 */
import { decodeFrame, type DecodedFrame, type FrameViolation } from './engine-inbound.js';
import { planContext, planDelivery } from './engine-behaviours.js';
import { findRule } from './engine-matching.js';
import type {
  Action,
  Behaviour,
  EngineState,
  InboundFrame,
  RecordEntry,
  Scenario,
  StartFn,
  StepFn,
  StepResult,
} from './model.js';
import { prngState } from './prng.js';
import { entriesOf, RecordedDelivery } from './recorded-delivery.js';
import { encodeBytes, recordAction } from './recording.js';

/** The state before the first frame (and after a reset). */
export function initialState(scenario: Scenario): EngineState {
  return {
    deliveries: 0,
    attempts: new Map(),
    fired: scenario.rules.map(() => 0),
    prng: prngState(scenario.seed ?? 0),
  };
}

/** Interprets one inbound frame. Never throws: anything unexpected becomes an `engine-error` violation. */
export const step: StepFn = stepDelivery;

/** `step`, typed with the compact delivery the session keeps. Never throws. */
export function stepDelivery(scenario: Scenario, state: EngineState, inbound: InboundFrame): Stepped {
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

function stepFrame(scenario: Scenario, state: EngineState, inbound: InboundFrame): Stepped {
  const delivery = state.deliveries + 1;
  const frame = decodeFrame(inbound.bytes, inbound.fault);
  // Updated in place: copying a map that grows with every event id made a long run quadratic
  // (20k distinct events took minutes). Shells thread state linearly; see StepFn.
  const attempts = state.attempts;
  let attempt = 1;
  // Counted per method and event id: retries reuse both; an observe of the same event does not count.
  if (frame.kind !== 'unparseable' && frame.method !== undefined && frame.eventId !== undefined) {
    let perEvent = attempts.get(frame.method);
    if (perEvent === undefined) attempts.set(frame.method, (perEvent = new Map()));
    attempt = (perEvent.get(frame.eventId) ?? 0) + 1;
    perEvent.set(frame.eventId, attempt);
  }
  const violations: FrameViolation[] = frame.violations;
  const decision =
    httpGate(scenario, inbound, violations) ??
    decide(scenario, frame, state.fired, { attempt, delivery, inbound });
  // Rule counters are copied only when a rule fires: most frames of a long run fire none.
  let fired = state.fired;
  if (decision.rule !== null) {
    fired = scenario.rules.map((_, i) => state.fired[i] ?? 0);
    fired[decision.rule] = (fired[decision.rule] ?? 0) + 1;
  }

  const prng = state.prng;
  const ctx = planContext(inbound.transport, frame, attempt, prng, violations);
  const { actions } = planDelivery(decision.behaviour, ctx);

  // The delivery is kept as one flat object; its public entries, outbound actions included, are
  // built when they are read (the actions planned again from the same decision, attempt and PRNG
  // state: planning is pure).
  const recorded = new RecordedDelivery(
    delivery,
    inbound.transport,
    inbound.connectionId,
    inbound.at.monotonic,
    inbound.at.wall,
    frame.text !== undefined ? frame.text : encodeBytes(inbound.bytes),
    inbound.fault,
    inbound.http,
    attempt,
    decision.rule,
    decision.planned,
    decision.behaviour,
    prng,
    violations.length === 0 ? NO_VIOLATIONS : violations,
  );
  return new Stepped(actions, { deliveries: delivery, attempts, fired, prng: ctx.prng }, recorded);
}

/** Shared by every delivery without violations (most of them), instead of an empty array each. */
const NO_VIOLATIONS: readonly FrameViolation[] = Object.freeze([]);

/**
 * A step's result. Its `records` are built from the compact delivery on first read: the session
 * keeps `recorded` instead, and builds entries only for those who read the recording.
 */
export class Stepped implements StepResult {
  private built: RecordEntry[] | undefined;

  constructor(
    readonly actions: Action[],
    readonly state: EngineState,
    readonly recorded: RecordedDelivery | readonly RecordEntry[],
  ) {}

  get records(): RecordEntry[] {
    this.built ??= [...entriesOf(this.recorded)];
    return this.built;
  }
}

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

function engineError(state: EngineState, inbound: InboundFrame, e: unknown): Stepped {
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
  const records: RecordEntry[] = [
    { type: 'violation', ...base, code: 'engine-error', message },
    ...actions.map((a): RecordEntry => ({ type: 'outbound', ...base, action: recordAction(a) })),
  ];
  return new Stepped(actions, { ...state, deliveries: base.delivery }, records);
}

/** Process start: the stdio banner, or a refusal to start (message on stderr, then exit). */
export const start: StartFn = (scenario, state, context) => {
  if (context.transport !== 'stdio') return { actions: [], state, records: [] };
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
  const records: RecordEntry[] = actions.map((a) => ({
    type: 'outbound',
    delivery: 0,
    transport: context.transport,
    connectionId: context.connectionId,
    action: recordAction(a),
  }));
  return { actions, state, records };
};
