import { randomUUID } from 'node:crypto';
import type { Clock } from '../protocol/clock.js';
import type {
  BackendRegistration,
  InterceptSubscription,
  ObserveSubscription,
} from '../protocol/registration.js';
import { InterceptFrames } from '../protocol/messages.js';
import {
  PROTOCOL_VERSION,
  type Capabilities,
  type EventEnvelope,
  type InjectEffect,
  type ToolBeforeEvent,
} from '../protocol/wire-types.js';
import { buildCapabilities, capabilitiesForEvent, unenforceableCapabilities } from './advertised-effects.js';
import type { AuditRecord } from './audit.js';
import { startCallBudget, type CallBudget } from './budget.js';
import { Cancellation } from './cancellation.js';
import { runChain, type ChainSettlement } from './chain.js';
import type { DeliveryDeps } from './delivery.js';
import { planDispatch, type DispatchPlan, type Planned } from './dispatch.js';
import { HarnessClosedError, HarnessConfigError, HarnessInputError } from './errors.js';
import { buildToolBeforeEvent, type InvokeInput } from './event.js';
import { HOST_PERMISSIONS, isExecuted, settlePermission, type HostPermission } from './host-permission.js';
import type { Ending } from './interruption.js';
import { deliverObservations, skippedObservations, type ObserveTarget } from './observers.js';
import { resolveOptions, type HarnessOptions, type ResolvedOptions } from './options.js';
import { interruptedReason } from './synthetic-denial.js';
import { initialState, type EffectiveState, type HarnessEvent, type Permission } from './staging.js';
import { TranscriptRecorder, type TranscriptEntry } from './transcript.js';
import { prepareUploads, type ConfirmedUpload, type OwnedAttachments } from './attachment-uploads.js';
import type { JsonObject, JsonValue, Violation } from '../protocol/json.js';
import type { BackendTransport, TokenProvider } from './transport.js';
import { buildInterceptedEvent, type EventInput } from './typed-event.js';

/** Per-call options: an explicit cancellation signal and/or an enclosing budget. */
export interface InvokeOptions {
  signal?: AbortSignal;
  /** The whole call's budget in ms; everything the call does consumes it. */
  budgetMs?: number;
  /** What the host's own permission rules say before AHP is asked (default `allow`). */
  hostPermission?: HostPermission;
  /**
   * The bytes the host owns for the event's attachment parts, by part id: uploaded before the
   * chain to each subscription that configures `upload` and selects their body.
   */
  attachments?: OwnedAttachments;
  /**
   * The `params.capabilities` of every intercept request of this call, instead of the ones made
   * from `advertisedEffects`: what the call offers, and so what it applies (a continue within
   * `flow.remainingContinuations`, its allowance). One this harness cannot enforce is an input error.
   */
  capabilities?: Capabilities;
}

/** The settled outcome of one hook call, for a `tool.before` or (`E`) any other event. */
export interface InvokeResult<E extends HarnessEvent = ToolBeforeEvent> {
  /** Never `continue` for an interrupted call. `continue` means only "no AHP denial". */
  decision: 'continue' | 'deny';
  /** Why the call was denied: the backend's reason, or a generic local sentence. */
  reason?: string;
  /** The backend's deny code, for an explicit deny that carried one. */
  denyCode?: string;
  /** True when the denial is not a backend's explicit deny (fail-closed or interruption). */
  synthetic: boolean;
  /**
   * True when the call ended (cancelled, budget expired, closed) before it completed, owned
   * observations included; such a call is never `continue`.
   */
  interrupted: boolean;
  /** Why an interrupted call ended; audit outcomes `budget-expired` vs `interrupted` say the same per record. */
  ending?: Ending;
  /** Host permission state from accepted `allow`/`ask` effects; the host still enforces its own rules. */
  permission: Permission;
  /** The host's permission the operation ended with: its own, made only stricter by AHP. */
  finalPermission: HostPermission;
  /** Whether the host carries the operation out (continue, not interrupted, final permission allow). */
  executed: boolean;
  /** Accepted `message` effects, in order. */
  messages: string[];
  /**
   * The supplied result in force when the call settled: an accepted `return` (its value may be
   * null) on a call that goes ahead with permission `allow` and no flow stop. The original
   * operation then does not run (`executed` false), which is no denial.
   */
  result?: { value: JsonValue };
  /** The accepted flow outcome; absent when no flow effect was accepted. A stop is not a deny. */
  flow?: 'stop' | 'continue';
  /** Accepted continue instructions in order; present when the call's capabilities offer continue. */
  continuationInstructions?: string[];
  /** The continuation allowance left after the call; same condition. */
  continuationRemaining?: number;
  /** Accepted `inject` effects in order; present when the call's capabilities offer inject. */
  injections?: InjectEffect[];
  /** The event as first sent. */
  event: E;
  /** The settled effective event (accepted input modifications applied). */
  effectiveEvent: E;
  audit: AuditRecord[];
  transcript: TranscriptEntry[];
  /** The uploads a receipt confirmed, when the call was handed attachment bytes. */
  uploads?: ConfirmedUpload[];
}

/** A reference AHP harness bound to one registration. */
export interface Harness {
  /** Raises `tool.before` for one tool call and settles it; rejects locally after `close()`. */
  invoke(input: InvokeInput, options?: InvokeOptions): Promise<InvokeResult>;
  /** Raises any other interceptable event and settles it the same way. */
  invoke(input: EventInput, options?: InvokeOptions): Promise<InvokeResult<EventEnvelope>>;
  /** Stops admission, ends in-flight calls, closes owned transports (reaping processes); idempotent. */
  close(): Promise<void>;
  /** PIDs of processes this harness spawned and has not yet seen exit. */
  livePids(): number[];
}

/** What a transport factory gets besides the backend entry. */
export interface TransportFactoryDeps {
  clock: Clock;
  env: Record<string, string | undefined>;
  tokenProviders: Record<string, TokenProvider>;
  killGraceMs: number;
}

/** Builds the transport the harness owns for one backend (it closes it on `close()`). */
export type TransportFactory = (backend: BackendRegistration, deps: TransportFactoryDeps) => BackendTransport;

/**
 * Creates a harness with an explicit transport factory; `createHarness` in `index.ts` passes the
 * built-in one. Every backend without an injected transport gets an owned one now, so a backend
 * that cannot be built is a configuration error up front, never a silent skip.
 */
export function createHarnessWith(options: HarnessOptions, factory: TransportFactory | undefined): Harness {
  const resolved = resolveOptions(options);
  const { clock } = resolved;
  const transports = new Map<string, BackendTransport>(resolved.injected);
  const owned: BackendTransport[] = [];
  for (const backend of resolved.registration.hooks) {
    if (transports.has(backend.id)) continue;
    const transport = buildOwned(backend, resolved, factory, owned);
    transports.set(backend.id, transport);
    owned.push(transport);
  }
  const capabilities = buildCapabilities(resolved.advertisedEffects);
  const interceptFrames = new InterceptFrames(PROTOCOL_VERSION, capabilities);
  // Other events get their own capabilities and frames, made on first use.
  const boundaries = new Map<string, { capabilities: Capabilities; frames: InterceptFrames }>();
  const boundaryFor = (type: string) => {
    let boundary = boundaries.get(type);
    if (!boundary) {
      const caps = capabilitiesForEvent(type, resolved.advertisedEffects) as Capabilities;
      boundaries.set(
        type,
        (boundary = { capabilities: caps, frames: new InterceptFrames(PROTOCOL_VERSION, caps) }),
      );
    }
    return boundary;
  };
  const shutdown = new Cancellation();
  // The registration is a normalized copy that never changes, so one plan per event type holds.
  const plans = new Map<string, DispatchPlan>();
  const planFor = (type: string): DispatchPlan => {
    let plan = plans.get(type);
    if (!plan) plans.set(type, (plan = planDispatch(resolved.registration, type)));
    return plan;
  };
  /** Calls admitted and not yet settled; `close` waits for them (they end at once on its abort). */
  let active = 0;
  let drained: (() => void) | undefined;
  let closing: Promise<void> | undefined;

  // Made once: per-call closures cost allocations (and a rename each under tsx's keep-names).
  const transportFor = (id: string) => transports.get(id) as BackendTransport;
  const envelopeDefaults = {
    source: resolved.source,
    sourceText: JSON.stringify(resolved.source),
    newEventId: () => `evt_${randomUUID()}`,
    plainEventIds: true,
    wallNow: () => clock.wallNow(),
  };

  return {
    async invoke(input: InvokeInput | EventInput, invokeOptions: InvokeOptions = {}): Promise<never> {
      if (closing) throw new HarnessClosedError();
      const { budgetMs, signal, hostPermission = 'allow', attachments } = invokeOptions;
      if (
        budgetMs !== undefined &&
        !(typeof budgetMs === 'number' && Number.isFinite(budgetMs) && budgetMs >= 0)
      ) {
        throw new HarnessInputError('budgetMs must be a non-negative finite number of milliseconds.');
      }
      if (!HOST_PERMISSIONS.includes(hostPermission)) {
        throw new HarnessInputError('hostPermission must be "allow", "ask" or "deny".');
      }
      // tool.before keeps its fast path; only the rarer events go through the generic builder.
      const typed = 'type' in input;
      const built = typed
        ? buildInterceptedEvent(input, envelopeDefaults)
        : buildToolBeforeEvent(input, envelopeDefaults);
      if (!built.ok) {
        throw new HarnessInputError(
          typed
            ? 'The invoke input does not make a valid interceptable event.'
            : 'The invoke input does not make a valid tool.before event.',
          built.violations,
        );
      }
      const asked = invokeOptions.capabilities;
      if (asked !== undefined) {
        const problems = unenforceableCapabilities(asked as JsonValue, built.event.type);
        if (problems.length > 0) {
          const first = problems[0] as Violation;
          throw new HarnessInputError(
            `This harness cannot advertise and enforce ${first.path} at ${built.event.type} (${first.message}); offer only what it applies there.`,
            problems,
          );
        }
      }
      const boundary =
        asked !== undefined
          ? { capabilities: asked, frames: new InterceptFrames(PROTOCOL_VERSION, asked) }
          : typed
            ? boundaryFor(built.event.type)
            : undefined;
      const callCapabilities = boundary?.capabilities ?? capabilities;
      const call = startCallBudget({
        clock,
        closeSignal: shutdown,
        ...(budgetMs === undefined ? {} : { budgetMs }),
        ...(signal === undefined ? {} : { signal }),
      });
      active++;
      // The call's body is here rather than in a helper: each async layer costs ticks per call.
      try {
        const event = built.event;
        const transcript = new TranscriptRecorder(clock);
        const deps: DeliveryDeps = {
          clock,
          call,
          transcript,
          transportFor,
          protocolVersion: PROTOCOL_VERSION,
          interceptFrames: boundary?.frames ?? interceptFrames,
          builtEvent: built,
          retries: resolved.retries,
          retryBackoffMs: resolved.retryBackoffMs,
        };
        const plan = planFor(event.type);
        // Every selected upload ends before any delivery of the event is published.
        const uploads =
          attachments === undefined || attachments.size === 0
            ? undefined
            : await prepareUploads(event as unknown as JsonObject, plan, attachments, {
                signal: call.signal,
                env: resolved.env,
                tokenProviders: resolved.tokenProviders,
                send: resolved.uploadSender,
              });
        const settlement = await runChain(plan.intercepts, initialState(event), callCapabilities, deps);
        const targets = observeTargets(plan.observers, settlement.uncalled);
        // Interruption starts no observations; otherwise the call owns them until each ends or is bounded.
        // Most calls have no observers: they settle without waiting for an empty delivery.
        const observed =
          targets.length === 0
            ? []
            : settlement.ending !== undefined
              ? skippedObservations(
                  targets,
                  clock.now(),
                  `not started: the call ended (${settlement.ending})`,
                )
              : await deliverObservations(targets, settlement.state.event, resolved.observerBoundMs, deps);
        // The overloads name the event type; the result carries whichever event was raised.
        const result = callResult(
          event,
          settlement,
          observed,
          transcript.entries,
          call,
          hostPermission,
          callCapabilities,
        );
        if (uploads !== undefined) result.uploads = uploads;
        return result as never;
      } finally {
        call.dispose();
        if (--active === 0) drained?.();
      }
    },

    close() {
      closing ??= (async () => {
        shutdown.abort(new HarnessClosedError());
        // In-flight calls end at once on the abort (nothing awaits a transport past it).
        if (active > 0) await new Promise<void>((resolve) => (drained = resolve));
        await Promise.allSettled(owned.map((t) => t.close()));
      })();
      return closing;
    },

    livePids() {
      return owned.flatMap((t) => t.livePids());
    },
  };
}

/** The settled result of one call, from its chain settlement and owned observations. */
function callResult(
  event: HarnessEvent,
  settlement: ChainSettlement,
  observed: AuditRecord[],
  transcript: TranscriptEntry[],
  call: CallBudget,
  hostPermission: HostPermission,
  capabilities: Capabilities,
): InvokeResult<HarnessEvent> {
  const result: InvokeResult<HarnessEvent> = {
    decision: settlement.decision,
    synthetic: settlement.synthetic,
    interrupted: settlement.ending !== undefined,
    permission: settlement.state.permission,
    finalPermission: 'deny',
    executed: false,
    messages: settlement.state.messages,
    event,
    effectiveEvent: settlement.state.event,
    audit: observed.length === 0 ? settlement.records : [...settlement.records, ...observed],
    transcript,
  };
  if (settlement.reason !== undefined) result.reason = settlement.reason;
  if (settlement.denyCode !== undefined) result.denyCode = settlement.denyCode;
  if (settlement.ending !== undefined) result.ending = settlement.ending;
  // The call owns its observations: ending while they run (budget, cancel, close) ends the call
  // before the host has its answer, and an interrupted call is never permission to run.
  const late = settlement.ending === undefined ? call.ending() : undefined;
  if (late !== undefined) {
    result.interrupted = true;
    result.ending = late;
    if (result.decision === 'continue') {
      result.decision = 'deny';
      result.reason = interruptedReason(late);
      result.synthetic = true;
    }
  }
  // Host permission applies after settlement: AHP can only make it stricter.
  result.finalPermission = settlePermission(hostPermission, result.decision, result.permission);
  result.executed = isExecuted(result.decision, result.interrupted, result.finalPermission);
  reportOutcomes(result, settlement.state, capabilities);
  return result;
}

/**
 * The flow, supplied-result, continuation and injection outcomes of a settled call. A flow
 * outcome or a supplied result means the original operation does not run, without a denial; a
 * supplied result is in force only where the operation would otherwise have gone ahead, so a
 * stop, a deny, an interruption or a pending approval leaves none.
 */
function reportOutcomes(
  result: InvokeResult<HarnessEvent>,
  state: EffectiveState,
  capabilities: Capabilities,
): void {
  if (state.flow !== 'none') {
    result.flow = state.flow;
    result.executed = false;
  }
  if (state.candidate !== null && result.executed) {
    result.result = state.candidate;
    result.executed = false;
  }
  const flow = capabilities.flow;
  if (flow?.operations.includes('continue') === true) {
    result.continuationInstructions = state.instructions;
    // Every continue of the call asks for the same one step: one unit, none under a stop.
    const allowance = flow.remainingContinuations ?? 0;
    result.continuationRemaining = state.flow === 'continue' ? allowance - 1 : allowance;
  }
  if (capabilities.inject !== undefined) result.injections = state.injections;
}

/** The observers of the event, then the interceptors a short-circuit left uncalled (boundary copies). */
function observeTargets(
  observers: readonly Planned<ObserveSubscription>[],
  uncalled: readonly Planned<InterceptSubscription>[],
): ObserveTarget[] {
  if (observers.length === 0 && uncalled.length === 0) return [];
  return [
    ...observers.map((planned) => ({ planned, boundaryCopy: false })),
    ...uncalled.map((planned) => ({ planned, boundaryCopy: true })),
  ];
}

function buildOwned(
  backend: BackendRegistration,
  resolved: ResolvedOptions,
  factory: TransportFactory | undefined,
  built: BackendTransport[],
): BackendTransport {
  const fail = (message: string): never => {
    // Whatever was already built is released before the error leaves.
    for (const t of built) void t.close();
    throw new HarnessConfigError('transport-invalid', message, [
      {
        path: `$.hooks[${resolved.registration.hooks.indexOf(backend)}].transport`,
        message,
        requirement: 'AHPX-HARNESS-OPTIONS',
      },
    ]);
  };
  if (!factory)
    return fail(`No transport was injected for backend "${backend.id}" and no factory is available.`);
  try {
    return factory(backend, {
      clock: resolved.clock,
      env: resolved.env,
      tokenProviders: resolved.tokenProviders,
      killGraceMs: resolved.killGraceMs,
    });
  } catch (error) {
    return fail(
      `The transport for backend "${backend.id}" cannot be built: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
