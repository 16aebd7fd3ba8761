// The public surface of protocol/: wire types, framing, envelopes, validators, the catalogue.
export * from './json.js';
export * from './clock.js';
export * from './failure-classes.js';
export * from './wire-types.js';
export * from './ndjson.js';
export * from './jsonrpc.js';
export * from './events.js';
export * from './content.js';
export * from './capabilities.js';
export * from './conflicts.js';
export * from './effects.js';
export * from './event-validation.js';
export * from './tool-events.js';
export * from './messages.js';
export * from './registration.js';
export * from './requirements.js';
export * from './discovery.js';
