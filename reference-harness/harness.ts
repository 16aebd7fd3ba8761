import { randomUUID } from 'node:crypto';
import type { Clock } from '../protocol/clock.js';
import type {
  BackendRegistration,
  InterceptSubscription,
  ObserveSubscription,
} from '../protocol/registration.js';
import { InterceptFrames } from '../protocol/messages.js';
import { PROTOCOL_VERSION, type ToolBeforeEvent } from '../protocol/wire-types.js';
import { buildCapabilities } from './advertised-effects.js';
import type { AuditRecord } from './audit.js';
import { startCallBudget, type CallBudget } from './budget.js';
import { Cancellation } from './cancellation.js';
import { runChain, type ChainSettlement } from './chain.js';
import type { DeliveryDeps } from './delivery.js';
import { planDispatch, type DispatchPlan, type Planned } from './dispatch.js';
import { HarnessClosedError, HarnessConfigError, HarnessInputError } from './errors.js';
import { buildToolBeforeEvent, type InvokeInput } from './event.js';
import type { Ending } from './interruption.js';
import { deliverObservations, skippedObservations, type ObserveTarget } from './observers.js';
import { resolveOptions, type HarnessOptions, type ResolvedOptions } from './options.js';
import { interruptedReason } from './synthetic-denial.js';
import type { Permission } from './staging.js';
import { TranscriptRecorder, type TranscriptEntry } from './transcript.js';
import type { BackendTransport, TokenProvider } from './transport.js';

/** Per-call options: an explicit cancellation signal and/or an enclosing budget. */
export interface InvokeOptions {
  signal?: AbortSignal;
  /** The whole call's budget in ms; everything the call does consumes it. */
  budgetMs?: number;
}

/** The settled outcome of one hook call. */
export interface InvokeResult {
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
  /** Accepted `message` effects, in order. */
  messages: string[];
  /** The `tool.before` event as first sent. */
  event: ToolBeforeEvent;
  /** The settled effective event (accepted input modifications applied). */
  effectiveEvent: ToolBeforeEvent;
  audit: AuditRecord[];
  transcript: TranscriptEntry[];
}

/** A reference AHP harness bound to one registration. */
export interface Harness {
  /** Raises `tool.before` for one tool call and settles it; rejects locally after `close()`. */
  invoke(input: InvokeInput, options?: InvokeOptions): Promise<InvokeResult>;
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
    async invoke(input, invokeOptions = {}) {
      if (closing) throw new HarnessClosedError();
      const { budgetMs, signal } = invokeOptions;
      if (
        budgetMs !== undefined &&
        !(typeof budgetMs === 'number' && Number.isFinite(budgetMs) && budgetMs >= 0)
      ) {
        throw new HarnessInputError('budgetMs must be a non-negative finite number of milliseconds.');
      }
      const built = buildToolBeforeEvent(input, envelopeDefaults);
      if (!built.ok) {
        throw new HarnessInputError(
          'The invoke input does not make a valid tool.before event.',
          built.violations,
        );
      }
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
          interceptFrames,
          builtEvent: built,
          retries: resolved.retries,
          retryBackoffMs: resolved.retryBackoffMs,
        };
        const plan = planFor(event.type);
        const settlement = await runChain(
          plan.intercepts,
          { event, permission: 'none', messages: [] },
          capabilities,
          deps,
        );
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
        return callResult(event, settlement, observed, transcript.entries, call);
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
  event: ToolBeforeEvent,
  settlement: ChainSettlement,
  observed: AuditRecord[],
  transcript: TranscriptEntry[],
  call: CallBudget,
): InvokeResult {
  const result: InvokeResult = {
    decision: settlement.decision,
    synthetic: settlement.synthetic,
    interrupted: settlement.ending !== undefined,
    permission: settlement.state.permission,
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
  return result;
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
