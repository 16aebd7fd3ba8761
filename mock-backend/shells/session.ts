/**
 * One mock's live state: the scenario, the engine state and the recordings, behind a step that is
 * atomic (the engine is synchronous and pure). Every shell of one mock steps the same session, so
 * attempt counting (`sequence`) and delivery numbers are shared across connections and processes.
 */
import { wallAt, type Clock } from '../../protocol/clock.js';
import { initialState, start, stepDelivery, type Stepped } from '../engine.js';
import { DeliveryLog } from '../delivery-log.js';
import { PerformedLog, type PerformedAction } from '../performed-log.js';
import { entriesOf, type RecordedDelivery } from '../recorded-delivery.js';
import type {
  EngineState,
  InboundFrame,
  InboundRecord,
  Instant,
  OutboundRecord,
  RecordEntry,
  Scenario,
  StepResult,
  Transport,
} from '../model.js';
import { preciseClock } from './precise-clock.js';

/** Which entries to read; every given field must hold. */
export interface RecordFilter {
  type?: RecordEntry['type'];
  transport?: Transport;
  connectionId?: string;
  delivery?: number;
  /** Inbound entries of this event id, and the outbound/violation entries of their deliveries. */
  eventId?: string;
  method?: string;
}

/** Options of `setScenario`. */
export interface SetScenarioOptions {
  /** Keep rule counters (by position), attempt numbers, PRNG and delivery numbers; default false. */
  keepState?: boolean;
}

/** Options of `waitForDelivery`. */
export interface WaitOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Raised when `waitForDelivery` gives up; names what was seen so the failing test explains itself. */
export class DeliveryTimeout extends Error {
  constructor(timeoutMs: number, seen: number) {
    super(`no matching delivery reached the mock within ${timeoutMs} ms (${seen} deliveries seen)`);
    this.name = 'DeliveryTimeout';
  }
}

type Listener = (entry: RecordEntry) => void;

/** Notes `count` actions from `index` as carried out, begun at `startedAt` (see `performedFor`). */
export type NotePerformed = (index: number, startedAt: number, count?: number) => void;

const SETTLED = Promise.resolve();

/** The mock's scenario, engine state and recordings. */
export class MockSession {
  readonly clock: Clock;
  private current: Scenario;
  private state: EngineState;
  /** Entries built so far, oldest first; `pending` holds the deliveries recorded after them. */
  private built: RecordEntry[] = [];
  /**
   * Deliveries kept compact until the recording is read (or somebody listens): most are never
   * read, and building their entries per frame cost about half the step, mostly in the GC.
   */
  private pending = new DeliveryLog();
  /** When shells carried out actions, until a read notes it on the built entries. */
  private performedLog = new PerformedLog();
  /** Built outbound entries not yet carried out, by delivery (a process start: by process). */
  private due = new Map<number | string, OutboundRecord[]>();
  private resets = 0;
  private readonly listeners = new Set<Listener>();
  /** The last step, until its bookkeeping is done (see `step`). */
  private unsettled: Stepped | undefined;
  private readonly settleSoon = (): void => this.settle();

  constructor(scenario: Scenario, options: { clock?: Clock } = {}) {
    this.clock = options.clock ?? preciseClock;
    this.current = scenario;
    this.state = initialState(scenario);
  }

  /** The scenario in force. */
  get scenario(): Scenario {
    return this.current;
  }

  /** A copy of the engine state (for diagnostics and tests). */
  get engineState(): EngineState {
    this.settle();
    return structuredClone(this.state);
  }

  /** The current instant from the session's clock. */
  now(): Instant {
    return { monotonic: this.clock.now(), wall: this.clock.wallNow() };
  }

  /**
   * Replaces the scenario; engine state starts afresh (rule counters belong to rules, attempts are
   * counted anew), recordings stay. Delivery numbers go on, so no two recorded deliveries share one.
   * With `keepState` the engine state goes on as it is: rule counters by rule position, attempt
   * numbers and the PRNG, for a suite that changes one rule's behaviour in the middle of a run.
   */
  setScenario(scenario: Scenario, options: SetScenarioOptions = {}): void {
    this.settle();
    this.current = scenario;
    // Made in either case: making it scans the new scenario for what its decisions depend on.
    const fresh = initialState(scenario);
    if (!options.keepState) this.state = { ...fresh, deliveries: this.state.deliveries };
  }

  /** Forgets recordings and engine state; the scenario stays. */
  reset(): void {
    this.unsettled = undefined;
    this.built = [];
    this.pending = new DeliveryLog();
    this.performedLog = new PerformedLog();
    this.due = new Map();
    this.resets++;
    this.state = initialState(this.current);
  }

  /** Changes on every reset; `/step` hands it to a stdio process, which reports it back with `performed`. */
  get epoch(): number {
    return this.resets;
  }

  /**
   * What a shell calls as it carries out the actions of `delivery` (just stepped, or 0 for the
   * start of process `connectionId`): `performed` bound to them and to the current epoch.
   */
  performedFor(delivery: number, connectionId: string): NotePerformed {
    const epoch = this.resets;
    return (index, startedAt, count = 1) =>
      this.performed(delivery, epoch, connectionId, index, count, startedAt);
  }

  /**
   * Notes that `count` planned actions of a delivery, from index `from`, were carried out, begun at
   * `startedAt` on the monotonic scale of the frame's `at` (the recording shows it as
   * `performedAt`). Its wall time is `wall` when given (a process on a clock of its own), else
   * derived from the session clock. `epoch` is the one read when the frame was stepped: the
   * actions of a delivery a reset forgot are not noted (delivery numbers start again after it).
   */
  performed(
    delivery: number,
    epoch: number,
    connectionId: string,
    from: number,
    count: number,
    startedAt: number,
    wall = wallAt(this.clock, startedAt),
  ): void {
    if (epoch !== this.resets) return;
    this.performedLog.add(delivery, from, count, startedAt, wall, connectionId);
  }

  /**
   * Interprets one inbound frame and records it. Never throws. The actions are ready at once; the
   * bookkeeping (attempt count, recording) waits for a microtask, which runs once the caller has
   * carried out what is due now (a shell writes an immediate reply synchronously), so it never
   * delays a reply. Anything that steps or reads settles it first: the order is kept.
   */
  step(frame: InboundFrame): Stepped {
    this.settle();
    const result = stepDelivery(this.current, this.state, frame);
    this.unsettled = result;
    // A listener hears of a delivery as it is stepped, as before.
    if (this.listeners.size > 0) this.settle();
    // A reaction on a settled promise: queueMicrotask would make an AsyncResource per step.
    else void SETTLED.then(this.settleSoon);
    return result;
  }

  /** Process start of a stdio mock (banner, refusal); records the start actions as delivery 0. */
  start(context: { transport: Transport; connectionId: string; at: Instant }): StepResult {
    this.settle();
    const result = start(this.current, this.state, context);
    this.state = result.state;
    this.append(result.records);
    return result;
  }

  /** Recorded entries, oldest first, optionally filtered. */
  recordings(filter: RecordFilter = {}): RecordEntry[] {
    const entries = this.entries();
    const deliveries =
      filter.eventId === undefined
        ? undefined
        : new Set(
            entries
              .filter((e) => e.type === 'inbound' && e.eventId === filter.eventId)
              .map((e) => `${e.connectionId} ${e.delivery}`),
          );
    return entries.filter(
      (e) =>
        (filter.type === undefined || e.type === filter.type) &&
        (filter.transport === undefined || e.transport === filter.transport) &&
        (filter.connectionId === undefined || e.connectionId === filter.connectionId) &&
        (filter.delivery === undefined || e.delivery === filter.delivery) &&
        (deliveries === undefined || deliveries.has(`${e.connectionId} ${e.delivery}`)) &&
        (filter.method === undefined || (e.type === 'inbound' && e.method === filter.method)),
    );
  }

  /** Inbound records only. */
  deliveries(): InboundRecord[] {
    return this.entries().filter((e): e is InboundRecord => e.type === 'inbound');
  }

  /** Calls `listener` for every entry recorded from now on; returns the unsubscribe function. */
  onRecord(listener: Listener): () => void {
    // Only what is stepped from now on: a step still settling is older than the listener.
    this.settle();
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Resolves with the first inbound record (already recorded or still to come) that satisfies
   * `predicate`; rejects with DeliveryTimeout after `timeoutMs` on the session clock.
   */
  waitForDelivery(
    predicate: (record: InboundRecord) => boolean = () => true,
    options: WaitOptions,
  ): Promise<InboundRecord> {
    let found: InboundRecord | undefined;
    try {
      found = this.deliveries().find(predicate);
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    if (found) return Promise.resolve(found);
    return new Promise<InboundRecord>((resolve, reject) => {
      const timer = new AbortController();
      const finish = (): void => {
        unsubscribe();
        timer.abort();
        options.signal?.removeEventListener('abort', onAbort);
      };
      const unsubscribe = this.onRecord((entry) => {
        if (entry.type !== 'inbound') return;
        let hit: boolean;
        try {
          hit = predicate(entry);
        } catch (e) {
          finish();
          reject(e);
          return;
        }
        if (hit) {
          finish();
          resolve(entry);
        }
      });
      const onAbort = (): void => {
        finish();
        reject(options.signal?.reason);
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.clock.sleep(options.timeoutMs, timer.signal).then(
        () => {
          finish();
          reject(new DeliveryTimeout(options.timeoutMs, this.deliveries().length));
        },
        () => undefined,
      );
    });
  }

  /** Every entry, oldest first: builds those of the deliveries kept compact since the last read. */
  private entries(): RecordEntry[] {
    this.settle();
    if (this.pending.length > 0) {
      for (let i = 0; i < this.pending.length; i++) {
        for (const entry of entriesOf(this.pending.at(i))) this.keep(entry);
      }
      this.pending = new DeliveryLog();
    }
    if (this.performedLog.length > 0) this.performedLog.drain((p) => this.notePerformed(p));
    return this.built;
  }

  private keep(entry: RecordEntry): void {
    this.built.push(entry);
    if (entry.type !== 'outbound') return;
    const key = dueKey(entry.delivery, entry.connectionId);
    const due = this.due.get(key);
    if (due === undefined) this.due.set(key, [entry]);
    else due.push(entry);
  }

  private notePerformed(p: PerformedAction): void {
    const key = dueKey(p.delivery, p.connectionId);
    const due = this.due.get(key);
    const entry = due?.[p.index];
    if (due === undefined || entry === undefined) return;
    entry.performedAt = p.at;
    // Actions run in order: once the last has run, none of the delivery's is still due.
    if (p.index === due.length - 1) this.due.delete(key);
  }

  /** Does the last step's bookkeeping if it is still to do. */
  private settle(): void {
    const result = this.unsettled;
    if (result === undefined) return;
    this.unsettled = undefined;
    this.state = result.state;
    this.append(result.recorded);
  }

  private append(recorded: RecordedDelivery | readonly RecordEntry[]): void {
    // Most of the time nobody waits: the delivery stays compact until a read.
    if (this.listeners.size === 0) {
      this.pending.add(recorded);
      return;
    }
    this.entries();
    for (const entry of entriesOf(recorded)) {
      this.keep(entry);
      for (const listener of [...this.listeners]) {
        try {
          listener(entry);
        } catch {
          // A listener's failure is its own; recording and stepping go on.
        }
      }
    }
  }
}

/** Deliveries are numbered across a session; every stdio process has its own start, delivery 0. */
function dueKey(delivery: number, connectionId: string | undefined): number | string {
  return delivery === 0 ? `start ${connectionId ?? ''}` : delivery;
}
