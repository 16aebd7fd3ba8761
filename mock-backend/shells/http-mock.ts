/**
 * The library's HTTP mock: the HTTP shell plus, by default, a control server over the same
 * mock core (what the CLI announces as `controlUrl`).
 */
import type { Clock } from '../../protocol/clock.js';
import type { JsonObject } from '../../protocol/json.js';
import { startControlServer, type ControlServer } from '../control/control-server.js';
import { ProcessRegistry } from '../control/process-registry.js';
import { registrationDocument, type RegistrationOptions } from '../control/registration-for.js';
import { checkedScenario, controlScenarioValidator } from '../control/scenario-check.js';
import type { InboundRecord, RecordEntry, Scenario } from '../model.js';
import { startHttpShell } from './http-shell.js';
import { MockCore, type RecordFilter, type SetScenarioOptions, type WaitOptions } from './mock-core.js';

/** Options of `startHttpMock`. */
export interface HttpMockOptions {
  scenario: Scenario;
  /** Default 0 (the OS picks). */
  port?: number;
  host?: string;
  clock?: Clock;
  /** A control server over the same core: `true`/omitted on port 0, `{port}`, or `false` for none. */
  control?: boolean | { port?: number };
  log?: (text: string) => void;
}

/** A running HTTP mock. */
export interface HttpMock {
  /** The URL to register, e.g. `http://127.0.0.1:4567/`. */
  readonly url: string;
  /** The control API over the same core, unless disabled. */
  readonly controlUrl: string | undefined;
  readonly core: MockCore;
  recordings(filter?: RecordFilter): RecordEntry[];
  deliveries(): InboundRecord[];
  waitForDelivery(predicate: (r: InboundRecord) => boolean, options: WaitOptions): Promise<InboundRecord>;
  /** Replaces the scenario (`keepState`: the engine state goes on, see MockCore.setScenario). */
  setScenario(scenario: Scenario, options?: SetScenarioOptions): void;
  /** Forgets recordings and engine state. */
  reset(): void;
  /** A registration document whose one backend is this mock (with bearer auth from `tokenEnv` if given). */
  registrationFor(options?: RegistrationOptions & { bearerTokenEnv?: string }): JsonObject;
  /** Closes the server (hanging exchanges included) and the control server. Safe to repeat. */
  close(): Promise<void>;
}

/** Starts an HTTP mock on loopback. */
export async function startHttpMock(options: HttpMockOptions): Promise<HttpMock> {
  const core = new MockCore(checkedScenario(options.scenario), options.clock ? { clock: options.clock } : {});
  const shell = await startHttpShell(core, {
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  let control: ControlServer | undefined;
  if (options.control !== false) {
    const port = typeof options.control === 'object' ? options.control.port : undefined;
    try {
      control = await startControlServer(core, new ProcessRegistry(), {
        validate: controlScenarioValidator,
        ...(port !== undefined ? { port } : {}),
      });
    } catch (e) {
      await shell.close();
      throw e;
    }
  }
  return {
    url: shell.url,
    controlUrl: control?.url,
    core,
    recordings: (filter) => core.recordings(filter),
    deliveries: () => core.deliveries(),
    waitForDelivery: (predicate, o) => core.waitForDelivery(predicate, o),
    setScenario: (scenario, o) => core.setScenario(checkedScenario(scenario), o),
    reset: () => core.reset(),
    registrationFor(o = {}) {
      const auth = o.bearerTokenEnv ? { type: 'bearer', tokenEnv: o.bearerTokenEnv } : undefined;
      return registrationDocument({ type: 'http', url: shell.url }, o, auth);
    },
    async close() {
      await Promise.all([shell.close(), control?.close()]);
    },
  };
}
