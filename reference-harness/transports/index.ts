/**
 * The reference harness's backend transports: persistent stdio, per-event stdio and HTTP, plus
 * the factory that builds one from a validated registration backend entry.
 *
 * Classification. A transport moves bytes and reports only transport-level failures, each with a
 * stable code whose class is fixed by one table (`TRANSPORT_FAILURE_CODES`):
 * - `process`: the backend could not be started (`stdio.launch-failed`: ENOENT, EACCES, bad cwd)
 *   or ended abnormally before its reply (`stdio.exit-nonzero`, `stdio.signal`,
 *   `stdio.stdout-closed`, `stdio.exit-before-reply`, `stdio.write-failed`), or, per-event, exited 0
 *   without any reply (`stdio.no-reply`: "no response" is a process failure); per-event, a
 *   non-zero exit or a signal is a process failure even after a valid reply. `stdio.closed`:
 *   the transport was closed under the call.
 * - `malformed`: stdout framing faults (`stdio.framing.<invalid-utf8|not-json|multi-line|
 *   frame-too-large|empty-line>`), a framing fault while no request was outstanding (banners,
 *   logs: `stdio.unsolicited-output`, reported by the next request, which is then not sent),
 *   per-event more than one frame
 *   (`stdio.extra-reply`); HTTP 200 with a non-JSON media type (`http.media-type`), a body that is
 *   not UTF-8 or not one JSON value, or over the cap; a body on a 202/204 notification reply.
 * - `http-status`: any status but 200 for a request (202/204 for a notification), redirects
 *   included and never followed (`http.redirect`).
 * - `connection`: refused (`http.connection-refused`), reset or cut off (`http.connection-reset`),
 *   other socket errors (`http.connection-failed`), or the transport closed (`http.closed`).
 * - `auth`: missing/empty `tokenEnv` (`auth.env-missing`), unknown `tokenRef`, an unusable token,
 *   a provider that rejects (`auth.provider-failed`), a 401 left after at most one refresh
 *   (`auth.unauthorized`) or a failed refresh (`auth.refresh-failed`). Nothing is sent without
 *   credentials.
 * - `deadline-exceeded` (`deadline`): the caller's signal aborted. The transport answers at once
 *   and the core reclassifies by the abort reason; a reply that still arrives while the transport
 *   listens goes to `onLateReply` once.
 * Persistent stdio correlates replies by JSON-RPC id: a frame carrying no outstanding request's
 * id (an unknown or old id, an answer to a notification) is kept in the transcript and read past,
 * never the answer nor a failure of any call. JSON-RPC envelope, id, result and effect checks of
 * the reply belong to the core, not here.
 */
import type { Clock } from '../../protocol/clock.js';
import type { BackendRegistration } from '../../protocol/registration.js';
import type { AgentOptions } from 'node:https';
import { createBearerSource } from '../auth/bearer.js';
import type { BackendTransport, TokenProvider } from '../transport.js';
import { createHttpTransport } from './http.js';
import { TransportConfigError } from './http-url.js';
import { createPerEventStdioTransport } from './stdio-per-event.js';
import { createPersistentStdioTransport } from './stdio-persistent.js';

export { createHttpTransport, type HttpTransportOptions } from './http.js';
export {
  HttpTransportConfigError,
  TransportConfigError,
  checkBackendUrl,
  isLoopbackHost,
} from './http-url.js';
export { createPerEventStdioTransport, type PerEventStdioOptions } from './stdio-per-event.js';
export { createPersistentStdioTransport, type PersistentStdioOptions } from './stdio-persistent.js';
export {
  TRANSPORT_FAILURE_CODES,
  TRANSPORT_FAILURE_CODE_LIST,
  transportFailure,
  type TransportFailureCode,
} from './failure-codes.js';
export {
  bearerFromEnv,
  bearerFromProvider,
  createBearerSource,
  type AuthorizationResult,
  type BearerAuthConfig,
  type BearerSource,
} from '../auth/bearer.js';

/**
 * Environment variables a spawned backend may inherit from `env`. Everything else, bearer
 * tokens above all, stays out of the child (AHP-STDIO-001: a minimal environment).
 */
export const CHILD_ENV_ALLOWLIST = [
  'PATH',
  'HOME',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'SYSTEMROOT',
] as const;

/** The minimal child environment: the allowlisted, defined entries of `env`. */
export function childEnvironment(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of CHILD_ENV_ALLOWLIST) {
    const value = Object.hasOwn(env, name) ? env[name] : undefined;
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** What `createTransportForBackend` needs besides the backend entry (the core's factory deps fit). */
export interface TransportDeps {
  clock: Clock;
  /** Read for `tokenEnv`; only `CHILD_ENV_ALLOWLIST` entries reach spawned processes. */
  env: Readonly<Record<string, string | undefined>>;
  tokenProviders?: Readonly<Record<string, TokenProvider>>;
  killGraceMs: number;
  maxFrameBytes?: number;
  maxBodyBytes?: number;
  /** TLS agent options for https backends (e.g. a narrower `ca`). */
  httpsAgentOptions?: AgentOptions;
}

/** The part of a validated backend entry that decides its transport. */
export type BackendTransportEntry = Pick<BackendRegistration, 'transport'> &
  Partial<Pick<BackendRegistration, 'id' | 'authentication'>>;

/**
 * Builds the transport of a validated backend entry. Throws `TransportConfigError` for what the
 * reference harness cannot honour (plain http off loopback, auth on stdio, OAuth bindings).
 */
export function createTransportForBackend(
  backend: BackendTransportEntry,
  deps: TransportDeps,
): BackendTransport {
  const name = backend.id === undefined ? 'the backend' : `backend "${backend.id}"`;
  const { transport, authentication } = backend;
  if (transport.type === 'http') {
    if (authentication && authentication.type !== 'bearer') {
      throw new TransportConfigError(
        'auth.unsupported',
        `${name} uses ${authentication.type} authentication, which this harness does not implement; use a bearer tokenEnv or tokenRef.`,
      );
    }
    const auth = authentication
      ? createBearerSource(authentication, {
          env: deps.env,
          ...(deps.tokenProviders ? { tokenProviders: deps.tokenProviders } : {}),
        })
      : undefined;
    return createHttpTransport({
      url: transport.url,
      clock: deps.clock,
      ...(auth ? { auth } : {}),
      ...(deps.httpsAgentOptions ? { agentOptions: deps.httpsAgentOptions } : {}),
      ...(deps.maxBodyBytes === undefined ? {} : { maxBodyBytes: deps.maxBodyBytes }),
    });
  }
  if (authentication) {
    throw new TransportConfigError(
      'auth.stdio',
      `${name} has authentication on a stdio transport; authentication applies to HTTP only, so remove it.`,
    );
  }
  const options = {
    command: transport.command,
    args: transport.args,
    ...(transport.cwd === undefined ? {} : { cwd: transport.cwd }),
    env: childEnvironment(deps.env),
    clock: deps.clock,
    killGraceMs: deps.killGraceMs,
    ...(deps.maxFrameBytes === undefined ? {} : { maxFrameBytes: deps.maxFrameBytes }),
  };
  return transport.lifecycle === 'persistent'
    ? createPersistentStdioTransport(options)
    : createPerEventStdioTransport(options);
}
