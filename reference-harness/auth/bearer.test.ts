import { describe, expect, it } from 'vitest';
import type { TokenProvider } from '../transport.js';
import { bearerFromEnv, bearerFromProvider, createBearerSource, type AuthorizationResult } from './bearer.js';

const live = () => new AbortController().signal;

function expectFailure(result: AuthorizationResult, failureClass: string, code: string): string {
  if (result.ok) throw new Error(`expected ${code}, got a header`);
  expect(result.failure).toMatchObject({ failureClass, code });
  return result.failure.detail;
}

describe('bearer from an environment variable', () => {
  it('reads the token from the env map it was given', async () => {
    const source = bearerFromEnv('AHP_TOKEN', { AHP_TOKEN: 'abc.def-1' });
    expect(source.refreshable).toBe(false);
    expect(await source.authorization({ signal: live(), refresh: false })).toEqual({
      ok: true,
      header: 'Bearer abc.def-1',
    });
  });

  it.each([
    ['missing', {}],
    ['empty', { AHP_TOKEN: '' }],
  ])('fails with auth.env-missing when the variable is %s', async (_, env) => {
    const detail = expectFailure(
      await bearerFromEnv('AHP_TOKEN', env).authorization({ signal: live(), refresh: false }),
      'auth',
      'auth.env-missing',
    );
    expect(detail).toContain('AHP_TOKEN');
  });

  it('refuses a token that could split the header, without quoting it', async () => {
    const detail = expectFailure(
      await bearerFromEnv('T', { T: 'sec ret\r\nX: y' }).authorization({ signal: live(), refresh: false }),
      'auth',
      'auth.token-invalid',
    );
    expect(detail).not.toContain('sec');
  });

  it('cannot refresh, and an aborted signal wins', async () => {
    const source = bearerFromEnv('T', { T: 'tok' });
    expectFailure(
      await source.authorization({ signal: live(), refresh: true }),
      'auth',
      'auth.refresh-failed',
    );
    const c = new AbortController();
    c.abort();
    expectFailure(
      await source.authorization({ signal: c.signal, refresh: false }),
      'deadline-exceeded',
      'deadline',
    );
  });
});

describe('bearer from a token provider', () => {
  it('passes the signal and the refresh flag through', async () => {
    const calls: Array<{ refresh: boolean; signal: AbortSignal }> = [];
    const provider: TokenProvider = {
      getToken: (r) => (calls.push(r), Promise.resolve(r.refresh ? 'fresh' : 'stale')),
    };
    const source = bearerFromProvider(provider, 'test');
    const signal = live();
    expect(await source.authorization({ signal, refresh: false })).toEqual({
      ok: true,
      header: 'Bearer stale',
    });
    expect(await source.authorization({ signal, refresh: true })).toEqual({
      ok: true,
      header: 'Bearer fresh',
    });
    expect(calls.map((c) => c.refresh)).toEqual([false, true]);
    expect(calls[0]?.signal).toBe(signal);
  });

  it('maps a rejection to provider-failed or refresh-failed and never keeps the error text', async () => {
    const provider: TokenProvider = { getToken: () => Promise.reject(new TypeError('token s3cr3t expired')) };
    const source = bearerFromProvider(provider, 'test');
    const d1 = expectFailure(
      await source.authorization({ signal: live(), refresh: false }),
      'auth',
      'auth.provider-failed',
    );
    const d2 = expectFailure(
      await source.authorization({ signal: live(), refresh: true }),
      'auth',
      'auth.refresh-failed',
    );
    for (const d of [d1, d2]) {
      expect(d).toContain('TypeError');
      expect(d).not.toContain('s3cr3t');
    }
  });

  it('treats a synchronous throw, an empty token and its own abort as provider failures', async () => {
    const throwing: TokenProvider = {
      getToken: () => {
        throw new Error('sync');
      },
    };
    expectFailure(
      await bearerFromProvider(throwing, 't').authorization({ signal: live(), refresh: false }),
      'auth',
      'auth.provider-failed',
    );
    const empty: TokenProvider = { getToken: () => Promise.resolve('') };
    expectFailure(
      await bearerFromProvider(empty, 't').authorization({ signal: live(), refresh: false }),
      'auth',
      'auth.provider-failed',
    );
    // The provider gave up on its own while the caller's deadline still runs: an auth failure.
    const selfAborted: TokenProvider = {
      getToken: () => Promise.reject(new DOMException('gave up', 'AbortError')),
    };
    const d = expectFailure(
      await bearerFromProvider(selfAborted, 't').authorization({ signal: live(), refresh: false }),
      'auth',
      'auth.provider-failed',
    );
    expect(d).toContain('AbortError');
  });

  it('answers at once when the signal aborts, even if the provider ignores it', async () => {
    const provider: TokenProvider = { getToken: () => new Promise<string>(() => undefined) };
    const c = new AbortController();
    const pending = bearerFromProvider(provider, 't').authorization({ signal: c.signal, refresh: false });
    c.abort();
    expectFailure(await pending, 'deadline-exceeded', 'deadline');
  });

  it('rechecks the signal after the provider resolves: a token obtained past the deadline is not used', async () => {
    const c = new AbortController();
    // The token resolves first; the deadline fires in the microtask right after, before the
    // source's continuation runs. Only the recheck after the callback can catch this.
    const provider: TokenProvider = {
      getToken: () => {
        const token = Promise.resolve('too-late');
        void token.then(() => queueMicrotask(() => c.abort()));
        return token;
      },
    };
    expectFailure(
      await bearerFromProvider(provider, 't').authorization({ signal: c.signal, refresh: false }),
      'deadline-exceeded',
      'deadline',
    );
  });
});

describe('createBearerSource', () => {
  it('resolves tokenEnv through the env map and tokenRef through the provider map', async () => {
    const fromEnv = createBearerSource({ type: 'bearer', tokenEnv: 'X' }, { env: { X: 'e' } });
    expect(await fromEnv.authorization({ signal: live(), refresh: false })).toEqual({
      ok: true,
      header: 'Bearer e',
    });
    const providers: Record<string, TokenProvider> = { 'vault:a': { getToken: () => Promise.resolve('p') } };
    const fromRef = createBearerSource(
      { type: 'bearer', tokenRef: 'vault:a' },
      { env: {}, tokenProviders: providers },
    );
    expect(fromRef.refreshable).toBe(true);
    expect(await fromRef.authorization({ signal: live(), refresh: false })).toEqual({
      ok: true,
      header: 'Bearer p',
    });
  });

  it('fails each use of an unknown tokenRef with auth.ref-unknown', async () => {
    for (const ref of ['nope', 'constructor', '__proto__', 'toString']) {
      const source = createBearerSource({ type: 'bearer', tokenRef: ref }, { env: {}, tokenProviders: {} });
      expectFailure(
        await source.authorization({ signal: live(), refresh: false }),
        'auth',
        'auth.ref-unknown',
      );
    }
  });
});
