import { describe, expect, it } from 'vitest';
import { confirmedReceipt, sha256Hex, uploadFramingProblems } from './content-upload.js';

const body = new Uint8Array([1, 2, 3]);
const sha256 = sha256Hex(body);
const json = (value: unknown, status = 201, contentType = 'application/json') => ({
  status,
  contentType,
  body: new TextEncoder().encode(JSON.stringify(value)),
});

describe('upload framing', () => {
  it('accepts POST, octet-stream, the exact length and the lowercase digest', () => {
    const headers = {
      'content-type': 'application/octet-stream',
      'content-length': '3',
      'ahp-content-sha256': sha256,
    };
    expect(uploadFramingProblems({ method: 'POST', headers, body })).toEqual([]);
    expect(uploadFramingProblems({ method: 'PUT', headers, body })).toEqual([
      'the upload used PUT, not POST',
    ]);
    expect(
      uploadFramingProblems({ method: 'POST', headers: { ...headers, 'content-length': '4' }, body }),
    ).toEqual(['Content-Length is 4; the body holds 3 octets']);
    const chunked = { ...headers, 'transfer-encoding': 'chunked' } as Record<string, string>;
    delete chunked['content-length'];
    expect(uploadFramingProblems({ method: 'POST', headers: chunked, body })).toEqual([
      'the body was sent with Transfer-Encoding chunked, without Content-Length',
    ]);
  });
});

describe('confirmedReceipt', () => {
  const sent = { size: 3, sha256 };
  it('confirms only a 201 JSON receipt of exactly the bytes sent', () => {
    expect(confirmedReceipt(json({ ref: 'r', size: 3, sha256 }), sent)).toEqual({
      ok: true,
      receipt: { ref: 'r', size: 3, sha256 },
    });
    const reasons = [
      json({ ref: 'r', size: 3, sha256 }, 200),
      json({ ref: 'r', size: 3, sha256 }, 202),
      json({ ref: 'r', size: 3, sha256 }, 201, 'text/plain'),
      json({ ref: 'r', size: 4, sha256 }),
      json({ ref: 'r', size: 3, sha256: sha256Hex(new Uint8Array([9])) }),
      json({ ref: '', size: 3, sha256 }),
      json({ ref: 'r', size: 3, sha256, expires: 1 }),
      json({ ref: 'r', size: 3, sha256: sha256.toUpperCase() }),
      { status: 201, contentType: 'application/json', body: new TextEncoder().encode('{"ref":') },
    ].map((response) => confirmedReceipt(response, sent));
    expect(reasons.every((r) => !r.ok)).toBe(true);
  });
});
