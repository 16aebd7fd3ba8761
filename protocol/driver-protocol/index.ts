// The harness driver protocol (docs/driver-protocol.md) in one schema: the suite validates a
// driver's replies with it, the reference driver parses the suite's requests with it, and both
// take their types from it.
export * from './vocabulary.js';
export * from './check.js';
export * from './requests.js';
export * from './results.js';
