/**
 * The mock backend's public API for suites and third-party harness tests. Everything outside
 * mock-backend/ imports from here only.
 *
 *   const mock = await startHttpMock({ scenario });            // a real HTTP backend on loopback
 *   const control = await startMockControl({ scenario });      // stdio mocks step on this server
 *   control.stdioCommand({ lifecycle: 'per_event' });          // {command, args} for a registration
 *   setupServer(...mswHandlers(createMock({ scenario }), { url }));   // in-process fetch interception
 */
import type { Clock } from '../protocol/clock.js';
import { checkedScenario } from './control/scenario-check.js';
import type { Scenario } from './model.js';
import { MockCore } from './shells/mock-core.js';

export type * from './model.js';
export { BEHAVIOUR_TRANSPORTS } from './model.js';
export { REQUEST_ID_TEMPLATE } from './engine-behaviours.js';
export { BUILTIN_SCENARIOS, builtinNames, LATE_REPLY_MS, type BuiltinScenario } from './builtins.js';
export {
  loadScenario,
  parseScenarioText,
  parseScenarioValue,
  type ScenarioError,
  type ScenarioParse,
} from './scenario.js';
export {
  actionsFor,
  bytesWrittenFor,
  decodeBytes,
  encodeBytes,
  inboundRecords,
  parseRecording,
  recordingDocument,
  recordingToJson,
  unplannedRequests,
  violationRecords,
  type RecordingDocument,
} from './recording.js';
export {
  MockCore,
  DeliveryTimeout,
  type RecordFilter,
  type SetScenarioOptions,
  type WaitOptions,
} from './shells/mock-core.js';
export { startHttpMock, type HttpMock, type HttpMockOptions } from './shells/http-mock.js';
export { mswHandlers, type MswHandlerOptions, type MockCoreSource } from './shells/msw-shell.js';
export { STDIO_MAIN_PATH, type StdioEntryKind } from './control/stdio-entry.js';
export {
  startMockControl,
  type Lifecycle,
  type MockControl,
  type MockControlOptions,
  type StdioCommand,
} from './control/mock-control.js';
export { controlClient, ControlError, type ControlClient } from './control/control-client.js';
export type { ProcessInfo } from './control/process-registry.js';
export { InvalidScenarioError } from './control/scenario-check.js';
export { DEFAULT_BACKEND_ID, type RegistrationOptions } from './control/registration-for.js';
export { CONTROL_URL_ENV } from './shells/stdio-args.js';
// For process entry points (the CLI's `mock-backend --stdio`): the stdio shell and its wiring.
export { startStdioMock, type StdioMockSource, type StdioMockStart } from './shells/stdio-mock.js';
export { processStdioHost } from './shells/process-host.js';
export { isPipe, watchParent } from './shells/owner-watch.js';
export {
  EXIT_NO_SCENARIO,
  runStdioMock,
  type ExitReport,
  type StdioHost,
  type StdioLink,
} from './shells/stdio-shell.js';

/** An in-process mock (no server): a validated core, e.g. for `mswHandlers`. */
export function createMock(options: { scenario: Scenario; clock?: Clock }): MockCore {
  return new MockCore(checkedScenario(options.scenario), options.clock ? { clock: options.clock } : {});
}
