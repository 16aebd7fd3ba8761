import { describe, expect, it } from 'vitest';
import { decodeJsonBody, isJsonMediaType, statusFailure } from './http-reply.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('HTTP reply rules', () => {
  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/problem+json',
    'application/vnd.ahp+json;v=1',
  ])('accepts %s as JSON', (type) => expect(isJsonMediaType(type)).toBe(true));

  it.each([
    undefined,
    '',
    'text/plain',
    'text/json-ish',
    'application/jsonp',
    'application/x-ndjson',
    'json',
  ])('rejects %s as JSON', (type) => expect(isJsonMediaType(type)).toBe(false));

  it('classifies redirects apart from other statuses', () => {
    expect(statusFailure(302, '/elsewhere')).toMatchObject({
      failureClass: 'http-status',
      code: 'http.redirect',
    });
    expect(statusFailure(307, undefined).detail).toContain('307');
    expect(statusFailure(500, undefined)).toMatchObject({
      failureClass: 'http-status',
      code: 'http.status',
      detail: 'HTTP 500',
    });
  });

  it('decodes one JSON value and rejects invalid UTF-8, non-JSON and an empty body', () => {
    expect(decodeJsonBody(bytes(' {"a":1}\n'))).toMatchObject({ ok: true, message: { a: 1 } });
    expect(decodeJsonBody(new Uint8Array([0x7b, 0xff, 0x7d]))).toMatchObject({
      ok: false,
      failure: { code: 'http.body-not-utf8' },
    });
    expect(decodeJsonBody(bytes('{"a":1}{"b":2}'))).toMatchObject({
      ok: false,
      failure: { code: 'http.body-not-json' },
    });
    expect(decodeJsonBody(bytes(''))).toMatchObject({
      ok: false,
      failure: { failureClass: 'malformed', code: 'http.body-not-json' },
    });
  });
});
