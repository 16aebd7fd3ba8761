import { describe, expect, it } from 'vitest';
import { HttpTransportConfigError, checkBackendUrl, isLoopbackHost } from './http-url.js';

describe('backend URL policy', () => {
  it.each(['127.0.0.1', '127.8.9.10', 'localhost', 'LOCALHOST', '[::1]', '::1', '[::ffff:7f00:1]'])(
    'treats %s as loopback',
    (host) => {
      expect(isLoopbackHost(host)).toBe(true);
    },
  );

  it.each([
    '10.0.0.1',
    '128.0.0.1',
    '0.0.0.0',
    'example.com',
    'localhost.example.com',
    '[::2]',
    '[::ffff:a00:1]',
    '127.evil.com',
  ])('does not treat %s as loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });

  it('accepts https anywhere and plain http only on loopback, keeping the exact path and query', () => {
    expect(checkBackendUrl('https://policy.example.com/ahp?x=1').href).toBe(
      'https://policy.example.com/ahp?x=1',
    );
    expect(checkBackendUrl('http://127.0.0.1:9/intercept?a=b').pathname).toBe('/intercept');
    expect(checkBackendUrl('http://[::1]:9/').hostname).toBe('[::1]');
    expect(checkBackendUrl('http://[::ffff:127.0.0.1]:9/').hostname).toBe('[::ffff:7f00:1]');
  });

  it.each([
    ['http://example.com/ahp', 'http.insecure-url'],
    ['http://10.0.0.1/ahp', 'http.insecure-url'],
    ['ftp://127.0.0.1/ahp', 'http.invalid-url'],
    ['/relative', 'http.invalid-url'],
  ])('refuses %s with %s', (url, code) => {
    const attempt = () => checkBackendUrl(url);
    expect(attempt).toThrow(HttpTransportConfigError);
    try {
      attempt();
    } catch (error) {
      expect((error as HttpTransportConfigError).code).toBe(code);
      expect((error as Error).message).toMatch(/https/);
    }
  });
});
