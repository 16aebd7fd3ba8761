/**
 * Test support: HTTP over a raw TCP socket, so tests see the exact bytes the mock sent (status
 * line, headers, chunk framing, a cut-off body, a reset) with no client library repairing them.
 */
import { connect, type Socket } from 'node:net';

/** What came back on the socket, as raw bytes and as parsed HTTP where it parses. */
export interface RawResponse {
  /** Every byte received, in order. */
  raw: Buffer;
  /** Arrival times (ms since the request was written) of each received chunk. */
  chunkTimes: number[];
  status?: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  /** The body with chunked framing removed (exact bytes otherwise). */
  body: Buffer;
  /** True when the response was complete per its framing (Content-Length or the last chunk). */
  complete: boolean;
  /** The socket error code, e.g. ECONNRESET for a reset. */
  error?: string;
}

/** Options of one raw request. */
export interface RawRequestOptions {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: Uint8Array | string;
  /** Resolve once this many ms passed with the socket still open (for hangs). */
  giveUpAfterMs?: number;
  /** Resolve as soon as the response is complete per its framing (keep-alive). */
  resolveWhenComplete?: boolean;
}

/** Sends one request on a new connection and collects the raw response. */
export function rawRequest(url: string, options: RawRequestOptions = {}): Promise<RawResponse> {
  const target = new URL(url);
  const body = typeof options.body === 'string' ? Buffer.from(options.body) : Buffer.from(options.body ?? []);
  const headers: Record<string, string> = {
    host: target.host,
    'content-type': 'application/json',
    connection: options.resolveWhenComplete ? 'keep-alive' : 'close',
    ...options.headers,
    'content-length': String(body.length),
  };
  const head = [
    `${options.method ?? 'POST'} ${options.path ?? target.pathname} HTTP/1.1`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    '',
    '',
  ].join('\r\n');
  return new Promise<RawResponse>((resolve) => {
    const socket: Socket = connect(Number(target.port), target.hostname);
    const chunks: Buffer[] = [];
    const chunkTimes: number[] = [];
    let start = 0;
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (error?: string) => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseResponse(Buffer.concat(chunks)), chunkTimes, ...(error ? { error } : {}) });
    };
    socket.on('connect', () => {
      start = performance.now();
      socket.write(Buffer.concat([Buffer.from(head), body]));
      if (options.giveUpAfterMs !== undefined) timer = setTimeout(() => finish(), options.giveUpAfterMs);
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      chunkTimes.push(performance.now() - start);
      if (options.resolveWhenComplete && parseResponse(Buffer.concat(chunks)).complete) finish();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => finish(e.code ?? e.message));
    socket.on('close', () => finish());
  });
}

/** Parses raw HTTP/1.1 response bytes, tolerating a response cut off anywhere. */
export function parseResponse(raw: Buffer): Omit<RawResponse, 'chunkTimes' | 'error'> {
  const split = raw.indexOf('\r\n\r\n');
  if (split === -1) return { raw, headers: {}, body: Buffer.alloc(0), complete: false };
  const [statusLine = '', ...lines] = raw.subarray(0, split).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(statusLine.split(' ')[1]);
  const rest = raw.subarray(split + 4);
  if (headers['transfer-encoding'] === 'chunked') return { raw, status, headers, ...dechunk(rest) };
  const length = headers['content-length'];
  if (length !== undefined) {
    return {
      raw,
      status,
      headers,
      body: rest.subarray(0, Number(length)),
      complete: rest.length >= Number(length),
    };
  }
  return { raw, status, headers, body: rest, complete: status === 204 || status === 304 };
}

function dechunk(data: Buffer): { body: Buffer; complete: boolean } {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf('\r\n', at);
    if (eol === -1) return { body: Buffer.concat(parts), complete: false };
    const size = parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (size === 0) return { body: Buffer.concat(parts), complete: true };
    const start = eol + 2;
    parts.push(data.subarray(start, Math.min(start + size, data.length)));
    if (start + size + 2 > data.length) return { body: Buffer.concat(parts), complete: false };
    at = start + size + 2;
  }
}
