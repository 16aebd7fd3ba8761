import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { uploadAttachment, type UploadPost, type UploadSender } from './upload.js';

const bytes = new Uint8Array([0, 255, 1, 2, 13, 10]);
const sha256 = createHash('sha256').update(bytes).digest('hex');
const source = { bytes, sha256 };

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

let server: Server | undefined;
afterEach(async () => {
  const open = server;
  server = undefined;
  if (open === undefined) return;
  open.closeAllConnections();
  await new Promise((resolve) => open.close(resolve));
});

/** A loopback endpoint answering each upload with `answer`; returns its URL and what it saw. */
async function endpoint(
  answer: (res: ServerResponse, body: Buffer) => void,
): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      answer(res, body);
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/blobs/in?tenant=a`, seen };
}

const receipt = (res: ServerResponse, value: unknown, status = 201) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
};
const options = (url: string, extra: Partial<Parameters<typeof uploadAttachment>[1]> = {}) => ({
  endpoint: url,
  timeoutMs: 1000,
  maxBytes: 1000,
  signal: new AbortController().signal,
  backendId: 'policy',
  ...extra,
});

describe('uploadAttachment', () => {
  it('POSTs the raw octets to the exact endpoint, framed as the binding says, and takes a matching receipt', async () => {
    const { url, seen } = await endpoint((res, body) =>
      receipt(res, {
        ref: 'r-1',
        size: body.length,
        sha256: createHash('sha256').update(body).digest('hex'),
      }),
    );
    const result = await uploadAttachment(source, options(url, { authorization: 'Bearer up' }));
    expect(result).toEqual({ ok: true, receipt: { ref: 'r-1', size: 6, sha256 } });
    expect(seen).toHaveLength(1);
    const [got] = seen as [Seen];
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/blobs/in?tenant=a');
    expect(got.headers['content-type']).toBe('application/octet-stream');
    expect(got.headers['content-length']).toBe('6');
    expect(got.headers['ahp-content-sha256']).toBe(sha256);
    expect(got.headers.authorization).toBe('Bearer up');
    expect(got.headers['transfer-encoding']).toBeUndefined();
    expect(new Uint8Array(got.body)).toEqual(bytes);
  });

  it('fails on anything but a 201 JSON receipt of these bytes', async () => {
    const answers: Array<[string, (res: ServerResponse) => void]> = [
      ['refused', (res) => receipt(res, { error: 'no' }, 403)],
      ['202', (res) => receipt(res, { ref: 'r', size: 6, sha256 }, 202)],
      ['wrong hash', (res) => receipt(res, { ref: 'r', size: 6, sha256: '0'.repeat(64) })],
      ['wrong size', (res) => receipt(res, { ref: 'r', size: 7, sha256 })],
      ['no ref', (res) => receipt(res, { size: 6, sha256 })],
    ];
    for (const [, answer] of answers) {
      const { url } = await endpoint(answer);
      const result = await uploadAttachment(source, options(url));
      expect(result).toMatchObject({ ok: false, gap: 'upload-failed' });
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
    }
  });

  it('hands an injected sender the framed POST, and judges its answer as any other', async () => {
    const posts: UploadPost[] = [];
    const send: UploadSender = (post) => {
      posts.push(post);
      const answer = { ref: 'r-9', size: post.body.length, sha256: post.headers['ahp-content-sha256'] };
      return Promise.resolve({
        status: 201,
        contentType: 'application/json',
        body: new TextEncoder().encode(JSON.stringify(answer)),
      });
    };
    const url = 'http://127.0.0.1:9/blobs?x=1';
    expect(await uploadAttachment(source, options(url, { send }))).toEqual({
      ok: true,
      receipt: { ref: 'r-9', size: 6, sha256 },
    });
    expect(posts.map((p) => [p.url.href, p.backendId, p.headers['content-length']])).toEqual([
      [url, 'policy', '6'],
    ]);
    const refusing: UploadSender = () =>
      Promise.resolve({ status: 403, contentType: undefined, body: new Uint8Array() });
    expect(await uploadAttachment(source, options(url, { send: refusing }))).toMatchObject({
      ok: false,
      gap: 'upload-failed',
    });
  });

  it('gives up at timeoutMs, and sends nothing past maxBytes', async () => {
    const { url, seen } = await endpoint(() => undefined);
    expect(await uploadAttachment(source, options(url, { timeoutMs: 50 }))).toMatchObject({
      ok: false,
      gap: 'upload-timeout',
    });
    expect(await uploadAttachment(source, options(url, { maxBytes: 5 }))).toMatchObject({
      ok: false,
      gap: 'upload-too-large',
    });
    expect(seen).toHaveLength(1);
  });
});
