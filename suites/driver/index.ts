// The public surface of the harness driver protocol client (v1), for the suites and the CLI.
export * from './shapes.js';
export * from './errors.js';
export * from './validate.js';
export { DriverClient } from './client.js';
export * from './client-options.js';
export { startDriver, type StartedDriver } from './start.js';
