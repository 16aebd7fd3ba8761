/**
 * The library's control server for stdio mocks: it owns the scenario, the engine state and the
 * recordings of every stdio mock process a harness spawns, and makes their command line.
 */
import type { Clock } from '../../protocol/clock.js';
import type { JsonObject } from '../../protocol/json.js';
import type { InboundRecord, RecordEntry, Scenario } from '../model.js';
import {
  MockCore,
  type RecordFilter,
  type SetScenarioOptions,
  type WaitOptions,
} from '../shells/mock-core.js';
import { startControlServer } from './control-server.js';
import { ProcessRegistry, type ProcessInfo } from './process-registry.js';
import { registrationDocument, type RegistrationOptions } from './registration-for.js';
import { checkedScenario, controlScenarioValidator } from './scenario-check.js';
import { stdioEntryArgs, type StdioEntryKind } from './stdio-entry.js';

/** The lifecycle a stdio registration declares; the mock process behaves the same under both. */
export type Lifecycle = 'persistent' | 'per_event';

/** An argv command line (never a shell string). */
export interface StdioCommand {
  command: string;
  args: string[];
}

/** Options of `startMockControl`. */
export interface MockControlOptions {
  scenario: Scenario;
  /** Default 0 (the OS picks). */
  port?: number;
  host?: string;
  clock?: Clock;
  /** How `stdioCommand` starts the entry: default `auto` (a bundled JS entry when esbuild is there, else tsx). */
  stdioEntry?: StdioEntryKind;
}

/** A running control server with the helpers suites need. */
export interface MockControl {
  /** The control API, e.g. `http://127.0.0.1:4567/`. */
  readonly url: string;
  readonly core: MockCore;
  /** The command line of a stdio mock process that steps its frames on this control server. */
  stdioCommand(options?: { lifecycle?: Lifecycle }): StdioCommand & { lifecycle: Lifecycle };
  /** A registration document whose one backend is the stdio mock. */
  registrationFor(options?: RegistrationOptions & { lifecycle?: Lifecycle }): JsonObject;
  recordings(filter?: RecordFilter): RecordEntry[];
  deliveries(): InboundRecord[];
  waitForDelivery(predicate: (r: InboundRecord) => boolean, options: WaitOptions): Promise<InboundRecord>;
  /** The stdio mock processes of the run, with exit code or signal once reported. */
  processes(): ProcessInfo[];
  pids(): number[];
  /** Replaces the scenario (`keepState`: the engine state goes on, see MockCore.setScenario). */
  setScenario(scenario: Scenario, options?: SetScenarioOptions): void;
  /** Forgets recordings, engine state and the process list. */
  reset(): void;
  close(): Promise<void>;
}

/** Starts a control server on loopback. */
export async function startMockControl(options: MockControlOptions): Promise<MockControl> {
  const core = new MockCore(checkedScenario(options.scenario), options.clock ? { clock: options.clock } : {});
  const registry = new ProcessRegistry();
  const server = await startControlServer(core, registry, {
    validate: controlScenarioValidator,
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
  });
  let entry: string[];
  try {
    entry = await stdioEntryArgs(options.stdioEntry ?? 'auto');
  } catch (e) {
    await server.close();
    throw e;
  }
  const stdioCommand = (o: { lifecycle?: Lifecycle } = {}) => ({
    command: process.execPath,
    args: [...entry, '--control-url', server.url],
    lifecycle: o.lifecycle ?? 'persistent',
  });
  return {
    url: server.url,
    core,
    stdioCommand,
    registrationFor(o = {}) {
      const { command, args, lifecycle } = stdioCommand(o);
      return registrationDocument({ type: 'stdio', command, args, lifecycle }, o);
    },
    recordings: (filter) => core.recordings(filter),
    deliveries: () => core.deliveries(),
    waitForDelivery: (predicate, o) => core.waitForDelivery(predicate, o),
    processes: () => registry.list(),
    pids: () => registry.pids(),
    setScenario: (scenario, o) => core.setScenario(checkedScenario(scenario), o),
    reset() {
      core.reset();
      registry.reset();
    },
    close: () => server.close(),
  };
}
