/**
 * The core of one mock: the scenario in force, the engine state threaded from step to step, and
 * the recording. Every shell of one mock steps the same core, so attempt counting (`sequence`)
 * and delivery numbers are shared across connections and processes. The engine is pure; this is
 * where its state lives between frames and where the recording is kept.
 */
import { wallAt, type Clock } from '../../protocol/clock.js';
import { initialState, start, step } from '../engine.js';
import { entriesOf, type Recorded } from '../recorded-delivery.js';
import type {
  Action,
  EngineState,
  InboundFrame,
  InboundRecord,
  Instant,
  OutboundRecord,
  RecordEntry,
  Scenario,
  Transport,
} from '../model.js';
import { DeliveryLog } from './delivery-log.js';
import { PerformedLog, type PerformedAction } from './performed-log.js';
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

/** What a shell gets back from a step: the actions to carry out and the delivery number they belong to. */
export interface CoreStep {
  actions: Action[];
  delivery: number;
}

/** The mock's scenario, engine state and recordings. */
export class MockCore {
  readonly clock: Clock;
  private current: Scenario;
  private state: EngineState;
  /** Entries built so far, oldest first; `pending` holds the deliveries recorded after them. */
  private built: RecordEntry[] = [];
  /** Deliveries kept compact until the recording is read (or somebody listens): most are never read. */
  private pending = new DeliveryLog();
  /** When shells carried out actions, until a read notes it on the built entries. */
  private performedLog = new PerformedLog();
  /** Built outbound entries not yet carried out, by delivery (a process start: by process). */
  private due = new Map<number | string, OutboundRecord[]>();
  private resets = 0;
  private readonly listeners = new Set<Listener>();

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
    return structuredClone(this.state);
  }

  /** The current instant from the core's clock. */
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
    this.current = scenario;
    if (!options.keepState) this.state = { ...initialState(scenario), deliveries: this.state.deliveries };
  }

  /** Forgets recordings and engine state; the scenario stays. */
  reset(): void {
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
   * derived from the core's clock. `epoch` is the one read when the frame was stepped: the
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

  /** Interprets one inbound frame and records it. Never throws. */
  step(frame: InboundFrame): CoreStep {
    const result = step(this.current, this.state, frame);
    this.state = result.state;
    this.append(result.recorded);
    return { actions: result.actions, delivery: result.state.deliveries };
  }

  /** Process start of a stdio mock (banner, refusal); records the start actions as delivery 0. */
  start(context: { transport: Transport; connectionId: string; at: Instant }): CoreStep {
    const result = start(this.current, this.state, context);
    this.state = result.state;
    this.append(result.recorded);
    return { actions: result.actions, delivery: 0 };
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
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Resolves with the first inbound record (already recorded or still to come) that satisfies
   * `predicate`; rejects with DeliveryTimeout after `timeoutMs` on the core's clock.
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

  private append(recorded: Recorded): void {
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

/** Deliveries are numbered across a mock; every stdio process has its own start, delivery 0. */
function dueKey(delivery: number, connectionId: string | undefined): number | string {
  return delivery === 0 ? `start ${connectionId ?? ''}` : delivery;
}
