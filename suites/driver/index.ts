// The public surface of the harness driver protocol client (v1), for the suites and the CLI.
export * from './shapes.js';
export * from './errors.js';
export * from './validate.js';
export {
  DriverClient,
  DEFAULT_DRIVER_TIMEOUTS,
  DEFAULT_DRIVER_KILL_GRACE_MS,
  DEFAULT_STDERR_LIMIT_BYTES,
  type DriverClientOptions,
  type DriverCallOptions,
  type DriverTimeouts,
} from './client.js';
export { startDriver, type StartedDriver } from './start.js';
