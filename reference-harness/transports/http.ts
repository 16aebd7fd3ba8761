import type { IncomingHttpHeaders } from 'node:http';
import * as http from 'node:http';
import * as https from 'node:https';
import type { Clock } from '../../protocol/clock.js';
import type { BearerSource } from '../auth/bearer.js';
import type {
  BackendTransport,
  NotifyOutcome,
  SendContext,
  TransportFailure,
  TransportReply,
} from '../transport.js';
import type { CancelView } from '../cancellation.js';
import { cancelOf } from './abortable.js';
import { abortedFailure, transportFailure } from './failure-codes.js';
import { DEFAULT_MAX_BODY_BYTES, decodeJsonBody, isJsonMediaType, statusFailure } from './http-reply.js';
import { checkBackendUrl } from './http-url.js';

export { HttpTransportConfigError } from './http-url.js';

/** Options of an HTTP backend. Keep-alive is always on; `agentOptions` may narrow TLS trust (`ca`). */
export interface HttpTransportOptions {
  url: string;
  clock: Clock;
  auth?: BearerSource;
  agentOptions?: https.AgentOptions;
  maxBodyBytes?: number;
}

/** The outcome of one POST, before the exchange-specific rules apply. */
type Posted =
  | { kind: 'failed'; failure: TransportFailure }
  | { kind: 'status'; status: number; headers: IncomingHttpHeaders }
  | { kind: 'body'; status: number; headers: IncomingHttpHeaders; body: Uint8Array }
  | { kind: 'too-large'; status: number };

const encoder = new TextEncoder();

function connectionFailure(error: NodeJS.ErrnoException): TransportFailure {
  const code = error.code ?? error.name;
  if (code === 'ECONNREFUSED')
    return transportFailure('http.connection-refused', `connection refused (${code})`);
  if (['ECONNRESET', 'EPIPE', 'ECONNABORTED'].includes(code) || error.message === 'socket hang up') {
    return transportFailure('http.connection-reset', `connection reset or lost (${code}: ${error.message})`);
  }
  return transportFailure('http.connection-failed', `connection failed (${code}: ${error.message})`);
}

function noDetach(): void {}

function closedFailure(): TransportFailure {
  return transportFailure('http.closed', 'the transport was closed');
}

/**
 * One POST in flight: it settles once, on a response, an error, the deadline or `close`. A class,
 * so that a request makes no named closures (this runs on every call).
 */
class PendingPost {
  settled = false;
  /** Detaches the cancellation listener; set right after construction. */
  detach: () => void = noDetach;
  readonly #req: http.ClientRequest;
  readonly #resolve: (posted: Posted) => void;
  readonly #active: Set<PendingPost>;

  constructor(req: http.ClientRequest, resolve: (posted: Posted) => void, active: Set<PendingPost>) {
    this.#req = req;
    this.#resolve = resolve;
    this.#active = active;
    active.add(this);
  }

  finish(result: Posted): void {
    if (this.settled) return;
    this.settled = true;
    this.detach();
    this.#active.delete(this);
    this.#resolve(result);
  }

  /** `finish` as a plain function, for the request's event handlers. */
  finisher(): (result: Posted) => void {
    return (result) => this.finish(result);
  }

  /** The transport is closing: end this request without a reply. */
  close(): void {
    this.finish({ kind: 'failed', failure: closedFailure() });
    this.#req.destroy();
  }
}

/**
 * POSTs each frame to the exact URL with node:http(s) and a keep-alive agent (not fetch: slower
 * here). Redirects are never followed. A 401 gets one refreshed token when the source can refresh.
 */
export function createHttpTransport(options: HttpTransportOptions): BackendTransport {
  const url = checkBackendUrl(options.url);
  const secure = url.protocol === 'https:';
  const agent = secure
    ? new https.Agent({ ...options.agentOptions, keepAlive: true })
    : new http.Agent({ keepAlive: true });
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const active = new Set<PendingPost>();
  let closed = false;

  /** One POST; `wantBody` says, once the status is known, whether the body matters. */
  const post = (
    frame: string,
    authorization: string | undefined,
    ctx: SendContext,
    cancel: CancelView,
    wantBody: (status: number, headers: IncomingHttpHeaders) => boolean,
  ): Promise<Posted> =>
    new Promise<Posted>((resolve) => {
      const body = encoder.encode(frame);
      const headers: http.OutgoingHttpHeaders = {
        'content-type': 'application/json',
        accept: 'application/json',
        'content-length': body.length,
      };
      if (authorization !== undefined) headers.authorization = authorization;
      const req = (secure ? https : http).request(url, { method: 'POST', agent, headers });
      const pending = new PendingPost(req, resolve, active);
      pending.detach = cancel.onAbort(() => {
        pending.finish({ kind: 'failed', failure: abortedFailure(cancel) });
        req.destroy();
      });
      const finish = pending.finisher();
      req.on('error', (error) => finish({ kind: 'failed', failure: connectionFailure(error) }));
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        if (!wantBody(status, res.headers)) {
          // Drain so the socket can serve the next request.
          res.resume();
          finish({ kind: 'status', status, headers: res.headers });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBody) {
            finish({ kind: 'too-large', status });
            req.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          const raw = new Uint8Array(
            chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size),
          );
          if (pending.settled) {
            // The body completed although the deadline already settled this exchange.
            if (size <= maxBody && cancel.aborted) ctx.onLateReply?.(raw);
            return;
          }
          finish({ kind: 'body', status, headers: res.headers, body: raw });
        });
        res.on('error', (error: NodeJS.ErrnoException) =>
          finish({ kind: 'failed', failure: connectionFailure(error) }),
        );
        res.on('close', () => {
          if (!res.complete) {
            finish({
              kind: 'failed',
              failure: transportFailure('http.connection-reset', 'the response body was cut off'),
            });
          }
        });
      });
      ctx.onFrame?.('out', body, frame);
      req.end(body);
    });

  /**
   * Runs one exchange with credentials: acquire the token inside the deadline, POST, and on a
   * 401 ask once for a refreshed token. Without credentials nothing is sent.
   */
  const send = async (
    frame: string,
    ctx: SendContext,
    wantBody: (status: number, headers: IncomingHttpHeaders) => boolean,
  ): Promise<Posted> => {
    if (closed) return { kind: 'failed', failure: closedFailure() };
    const cancel = cancelOf(ctx);
    if (cancel.aborted) return { kind: 'failed', failure: abortedFailure(cancel) };
    let refresh = false;
    for (;;) {
      let authorization: string | undefined;
      if (options.auth) {
        const got = await options.auth.authorization({ signal: cancel.signal, refresh });
        if (!got.ok) return { kind: 'failed', failure: got.failure };
        if (cancel.aborted) return { kind: 'failed', failure: abortedFailure(cancel) };
        if (closed) return { kind: 'failed', failure: closedFailure() };
        authorization = got.header;
      }
      if (cancel.aborted) return { kind: 'failed', failure: abortedFailure(cancel) };
      const posted = await post(frame, authorization, ctx, cancel, wantBody);
      if (posted.kind !== 'status' || posted.status !== 401) return posted;
      if (!options.auth?.refreshable || refresh) {
        const after = refresh ? ' after a refreshed token' : '';
        return { kind: 'failed', failure: transportFailure('auth.unauthorized', `HTTP 401${after}`) };
      }
      refresh = true;
    }
  };

  return {
    kind: 'http',
    async request(frame, ctx): Promise<TransportReply> {
      const posted = await send(
        frame,
        ctx,
        (status, headers) => status === 200 && isJsonMediaType(headers['content-type']),
      );
      switch (posted.kind) {
        case 'failed':
          return { ok: false, failure: posted.failure };
        case 'too-large':
          return {
            ok: false,
            failure: transportFailure('http.body-too-large', `the response body exceeded ${maxBody} bytes`),
          };
        case 'status': {
          if (posted.status !== 200)
            return { ok: false, failure: statusFailure(posted.status, posted.headers.location) };
          const type = JSON.stringify(posted.headers['content-type'] ?? null);
          return {
            ok: false,
            failure: transportFailure('http.media-type', `HTTP 200 with media type ${type}, not JSON`),
          };
        }
        case 'body':
          ctx.onFrame?.('in', posted.body);
          return decodeJsonBody(posted.body);
      }
    },
    async notify(frame, ctx): Promise<NotifyOutcome> {
      // The body is read whatever the status (a 401 excepted: it asks for a fresh token), so that a
      // JSON-RPC response sent with a refusing status is seen for what it is.
      const posted = await send(frame, ctx, (status) => status !== 401);
      switch (posted.kind) {
        case 'failed':
          return { ok: false, failure: posted.failure };
        case 'too-large':
          if (posted.status !== 202 && posted.status !== 204) {
            return { ok: false, failure: statusFailure(posted.status, undefined) };
          }
          return {
            ok: false,
            failure: transportFailure('http.notify-body', `HTTP ${posted.status} with a body`),
          };
        case 'status':
          return { ok: false, failure: statusFailure(posted.status, posted.headers.location) };
        case 'body':
          if (posted.body.length > 0) ctx.onFrame?.('in', posted.body);
          if (posted.status !== 202 && posted.status !== 204) {
            return { ok: false, failure: statusFailure(posted.status, posted.headers.location) };
          }
          if (posted.body.length === 0) return { ok: true };
          return {
            ok: false,
            failure: transportFailure(
              'http.notify-body',
              `HTTP ${posted.status} with a ${posted.body.length}-byte body`,
            ),
          };
      }
    },
    close() {
      if (!closed) {
        closed = true;
        for (const pending of [...active]) pending.close();
        agent.destroy();
      }
      return Promise.resolve();
    },
    livePids: () => [],
  };
}
