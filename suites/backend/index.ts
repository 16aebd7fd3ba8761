// The public surface of the backend suite, for the CLI: the target, margins, redaction and the
// self-certification runs as data; the endpoint and the pre-flight (which load the transports)
// load on use, so a command that needs neither does not pay for them.
export {
  bindingOf,
  claimBindingOf,
  describeTarget,
  secretsOf,
  toolInputsOf,
  type BackendBinding,
  type BackendEndpoint,
  type BackendTarget,
} from './target.js';
export { BACKEND_MARGINS, preflightBound, scaledBackendMargins } from './margins.js';
export { redactJson, redactText } from './redact.js';
export * from './self-test-runs.js';

/** The endpoint builders (`httpEndpoint`, `stdioEndpoint`), loaded on use. */
export const loadEndpoints = () => import('./endpoint.js');
/** The pre-flight check (`preflightBackend`, `commandLine`), loaded on use. */
export const loadPreflight = () => import('./preflight.js');
