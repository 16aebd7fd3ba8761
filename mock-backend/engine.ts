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
import { recordAction } from './recording.js';

/**
 * Scenarios scanned for attempt dependence, by object: a scenario is scanned when a state is made
 * for it (a session's start, `setScenario`, `reset`) or on its first step otherwise.
 */
const attemptDependence = new WeakMap<Scenario, boolean>();

/** The state before the first frame (and after a reset). */
export function initialState(scenario: Scenario): EngineState {
  // Scanned afresh here, so a scenario object changed in place and then set again is read as it is now.
  attemptDependence.set(scenario, scanForAttempts(scenario));
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
  // Counted now only when a decision can depend on it; else when the result is settled, which a
  // session does once the shell has answered (the count is part of the record, not of the reply).
  const early = decidesByAttempt(scenario) ? countAttempt(state.attempts, frame) : undefined;
  const violations: FrameViolation[] = frame.violations;
  const decision =
    httpGate(scenario, inbound, violations) ??
    decide(scenario, frame, state.fired, { attempt: early ?? 1, delivery, inbound });
  // Rule counters are copied only when a rule fires: most frames of a long run fire none.
  let fired = state.fired;
  if (decision.rule !== null) {
    fired = scenario.rules.map((_, i) => state.fired[i] ?? 0);
    fired[decision.rule] = (fired[decision.rule] ?? 0) + 1;
  }

  const prng = state.prng;
  const ctx = planContext(inbound.transport, frame, early ?? 1, prng, violations);
  const { actions } = planDelivery(decision.behaviour, ctx);

  // Everything the settling reads is taken now, so settling cannot fail on a hand-built frame.
  const { transport, connectionId, fault, http } = inbound;
  const { monotonic, wall } = inbound.at;
  const bytes = inbound.bytes;
  return new Stepped(actions, delivery, () => {
    const attempt = early ?? countAttempt(state.attempts, frame);
    // The delivery is kept as one flat object; its public entries, outbound actions included, are
    // built when they are read (the actions planned again from the same decision, attempt and
    // PRNG state: planning is pure).
    const recorded = new RecordedDelivery(
      delivery,
      transport,
      connectionId,
      monotonic,
      wall,
      bytes,
      fault,
      http,
      attempt,
      decision.rule,
      decision.planned,
      decision.behaviour,
      prng,
      violations.length === 0 ? NO_VIOLATIONS : violations,
    );
    return { state: { deliveries: delivery, attempts: state.attempts, fired, prng: ctx.prng }, recorded };
  });
}

/**
 * The attempt number of a frame's event id, counted: per method and event id (retries reuse both;
 * an observe of the same event does not count). The map is updated in place: copying a map that
 * grows with every event id made a long run quadratic (20k distinct events took minutes). Shells
 * thread state linearly; see StepFn.
 */
function countAttempt(attempts: EngineState['attempts'], frame: DecodedFrame): number {
  if (frame.kind === 'unparseable' || frame.method === undefined || frame.eventId === undefined) return 1;
  let perEvent = attempts.get(frame.method);
  if (perEvent === undefined) attempts.set(frame.method, (perEvent = new Map()));
  const attempt = (perEvent.get(frame.eventId) ?? 0) + 1;
  perEvent.set(frame.eventId, attempt);
  return attempt;
}

/** Whether a decision can depend on the attempt number: a rule matches on it, or a `sequence` plays it. */
function decidesByAttempt(scenario: Scenario): boolean {
  let known = attemptDependence.get(scenario);
  if (known === undefined) attemptDependence.set(scenario, (known = scanForAttempts(scenario)));
  return known;
}

function scanForAttempts(scenario: Scenario): boolean {
  try {
    return scenario.rules.some((r) => r.match?.attempt !== undefined) || hasSequence(scenario);
  } catch {
    // A hand-built value the scan cannot walk (a cycle): counting early is always right.
    return true;
  }
}

/** A `sequence` anywhere in the value (behaviours nest in rules, strategies and each other). */
function hasSequence(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(hasSequence);
  if ((value as { kind?: unknown }).kind === 'sequence') return true;
  return Object.values(value).some(hasSequence);
}

/** Shared by every delivery without violations (most of them), instead of an empty array each. */
const NO_VIOLATIONS: readonly FrameViolation[] = Object.freeze([]);

/** What a step leaves behind once settled: the next state and the delivery's recording. */
interface Settled {
  state: EngineState;
  recorded: RecordedDelivery | readonly RecordEntry[];
}

/**
 * A step's result. The actions are ready at once; the bookkeeping (the next state, with its
 * attempt count, and the recording) is done on first read of `state`, `recorded` or `records`,
 * so a shell can answer first. Reading in step order keeps the counts what they were step by step.
 * Its `records` are built from the compact delivery on first read: the session keeps `recorded`
 * instead, and builds entries only for those who read the recording.
 */
export class Stepped implements StepResult {
  private settle: (() => Settled) | undefined;
  private settled: Settled | undefined;
  private built: RecordEntry[] | undefined;

  constructor(
    readonly actions: Action[],
    /** The delivery number the frame got (known at once: shells note its actions as carried out). */
    readonly delivery: number,
    settle: () => Settled,
  ) {
    this.settle = settle;
  }

  get state(): EngineState {
    return this.done().state;
  }

  get recorded(): RecordedDelivery | readonly RecordEntry[] {
    return this.done().recorded;
  }

  get records(): RecordEntry[] {
    this.built ??= [...entriesOf(this.recorded)];
    return this.built;
  }

  private done(): Settled {
    if (this.settled === undefined) {
      const settle = this.settle as () => Settled;
      this.settle = undefined;
      this.settled = settle();
    }
    return this.settled;
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
  return new Stepped(actions, base.delivery, () => ({
    state: { ...state, deliveries: base.delivery },
    recorded: records,
  }));
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
