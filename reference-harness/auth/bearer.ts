import type { TokenProvider, TransportFailure } from '../transport.js';
import { ABORTED, raceSignal } from '../cancellation.js';
import { abortedFailure, transportFailure } from '../transports/failure-codes.js';

/** The `Authorization` header value to send, or the reason nothing may be sent. */
export type AuthorizationResult = { ok: true; header: string } | { ok: false; failure: TransportFailure };

/** A source of bearer credentials for one HTTP backend. */
export interface BearerSource {
  /** True when a 401 may be answered by asking for one refreshed token. */
  readonly refreshable: boolean;
  /**
   * Resolves the header value within `signal`. Never rejects; a failure never carries the token.
   * When `signal` aborts first the failure is `deadline`, so the core can reclassify by reason.
   */
  authorization(request: { signal: AbortSignal; refresh: boolean }): Promise<AuthorizationResult>;
}

/** A registration's bearer binding: a token from an environment variable or from a provider reference. */
export type BearerAuthConfig = { type: 'bearer'; tokenEnv: string } | { type: 'bearer'; tokenRef: string };

/** What the core passes to resolve bearer bindings. */
export interface BearerDeps {
  /** The environment map to read `tokenEnv` from (never `process.env` directly). */
  env: Readonly<Record<string, string | undefined>>;
  /** Injected providers by `tokenRef`; caller-owned, never closed here. */
  tokenProviders?: Readonly<Record<string, TokenProvider>>;
}

// RFC 6750's b64token is narrower; any visible ASCII is accepted, but never whitespace or
// control characters, which could split or forge a header.
const HEADER_SAFE = /^[\x21-\x7e]+$/;

const fail = (failure: TransportFailure): AuthorizationResult => ({ ok: false, failure });

function header(token: string): string {
  return `Bearer ${token}`;
}

/** A token read from `env[tokenEnv]` at each use; an environment token cannot be refreshed. */
export function bearerFromEnv(tokenEnv: string, env: BearerDeps['env']): BearerSource {
  return {
    refreshable: false,
    authorization({ signal, refresh }) {
      if (signal.aborted) return Promise.resolve(fail(abortedFailure(signal)));
      if (refresh) {
        return Promise.resolve(
          fail(transportFailure('auth.refresh-failed', `the token from ${tokenEnv} cannot be refreshed`)),
        );
      }
      const token = env[tokenEnv];
      if (token === undefined || token === '') {
        return Promise.resolve(
          fail(transportFailure('auth.env-missing', `environment variable ${tokenEnv} is missing or empty`)),
        );
      }
      if (!HEADER_SAFE.test(token)) {
        return Promise.resolve(
          fail(
            transportFailure(
              'auth.token-invalid',
              `the token in ${tokenEnv} holds whitespace or control characters`,
            ),
          ),
        );
      }
      return Promise.resolve({ ok: true, header: header(token) });
    },
  };
}

/**
 * A token from an injected provider, acquired inside the caller's deadline. The provider's own
 * error text is not kept (it may quote the credential); only the error's name is.
 */
export function bearerFromProvider(provider: TokenProvider, label: string): BearerSource {
  return {
    refreshable: true,
    async authorization({ signal, refresh }) {
      if (signal.aborted) return fail(abortedFailure(signal));
      const code = refresh ? 'auth.refresh-failed' : 'auth.provider-failed';
      const what = refresh ? 'refresh' : 'acquisition';
      let outcome: string | typeof ABORTED;
      try {
        // No lock is held here: the provider may block, and only this caller waits for it.
        outcome = await raceSignal(Promise.resolve(provider.getToken({ signal, refresh })), signal);
      } catch (error) {
        const name = error instanceof Error ? error.name : typeof error;
        return fail(transportFailure(code, `token ${what} through ${label} failed (${name})`));
      }
      // Recheck after the external callback: a token that arrives after the deadline is not used.
      if (outcome === ABORTED || signal.aborted) return fail(abortedFailure(signal));
      if (typeof outcome !== 'string' || outcome === '') {
        return fail(transportFailure(code, `token ${what} through ${label} gave no token`));
      }
      if (!HEADER_SAFE.test(outcome)) {
        return fail(
          transportFailure(
            'auth.token-invalid',
            `the token from ${label} holds whitespace or control characters`,
          ),
        );
      }
      return { ok: true, header: header(outcome) };
    },
  };
}

/** Builds the bearer source of a registration binding. An unknown `tokenRef` fails at each use. */
export function createBearerSource(auth: BearerAuthConfig, deps: BearerDeps): BearerSource {
  if ('tokenEnv' in auth) return bearerFromEnv(auth.tokenEnv, deps.env);
  // Own keys only: a ref such as "constructor" must not find an inherited member.
  const providers = deps.tokenProviders ?? {};
  const provider = Object.hasOwn(providers, auth.tokenRef) ? providers[auth.tokenRef] : undefined;
  if (provider) return bearerFromProvider(provider, `tokenRef ${auth.tokenRef}`);
  return {
    refreshable: false,
    authorization: ({ signal }) =>
      Promise.resolve(
        fail(
          signal.aborted
            ? abortedFailure(signal)
            : transportFailure(
                'auth.ref-unknown',
                `no token provider is registered for tokenRef ${auth.tokenRef}`,
              ),
        ),
      ),
  };
}
