/**
 * The HTTP shell: a real node:http server on loopback. Each request body is one engine frame
 * (any method, any path: the engine judges them); the actions are carried out on the response.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { DEFAULT_MAX_FRAME_BYTES } from '../../protocol/ndjson.js';
import type { HttpMeta, InboundFrame } from '../model.js';
import { respond, respondAtOnce } from './http-responder.js';
import type { MockCore } from './mock-core.js';
import { listenOnLoopback } from './listen-loopback.js';

/** Options of the HTTP shell. */
export interface HttpShellOptions {
  /** Default 127.0.0.1: the mock is a loopback test double. */
  host?: string;
  /** Default 0: the OS picks a free port. */
  port?: number;
  /** Diagnostic lines (`log` actions, shell problems). */
  log?: (text: string) => void;
}

/** A listening HTTP shell. */
export interface HttpShell {
  /** `http://127.0.0.1:PORT/`. */
  readonly url: string;
  readonly port: number;
  /** Stops listening and destroys every open connection (hanging ones included). Safe to repeat. */
  close(): Promise<void>;
}

/** Starts the HTTP shell over `core`. */
export async function startHttpShell(core: MockCore, options: HttpShellOptions = {}): Promise<HttpShell> {
  const connections = new WeakMap<Socket, string>();
  let nextConnection = 0;
  const server: Server = createServer();
  // Hanging and slow exchanges are the point of the mock: no server-side timeouts cut them short.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  server.on('connection', (socket: Socket) => {
    connections.set(socket, `c${++nextConnection}`);
    // A peer that resets the connection must not surface as an unhandled error.
    socket.on('error', ignore);
  });
  server.on('clientError', (_error, socket: Socket) => socket.destroy());
  const log = options.log;
  server.on('request', (req, res) => {
    // The usual body arrives in one chunk: node copies each chunk into a buffer of its own, so
    // that one is handed on as is (no array, concatenation or copy per request).
    let first: Buffer | undefined;
    let more: Buffer[] | undefined;
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the cap the body is not kept; the engine records the frame as too large.
      if (size > DEFAULT_MAX_FRAME_BYTES) {
        first = more = undefined;
      } else if (first === undefined) first = chunk;
      else (more ??= [first]).push(chunk);
    });
    req.on('error', ignore);
    req.on('end', () => {
      const at = core.now();
      const frame: InboundFrame = {
        bytes: more !== undefined ? Buffer.concat(more, size) : (first ?? NO_BYTES),
        transport: 'http',
        connectionId: connections.get(req.socket) ?? 'c?',
        at,
        http: httpMeta(req),
      };
      if (size > DEFAULT_MAX_FRAME_BYTES) frame.fault = 'too-large';
      const { actions, delivery } = core.step(frame);
      const performed = core.performedFor(delivery, frame.connectionId);
      // A reply due on arrival (nearly every exchange) is sent here and now; others are scheduled.
      const startedAt = core.clock.now();
      const outcome = respondAtOnce(res, actions, log);
      if (outcome === 'done') performed(0, startedAt, actions.length);
      else if (outcome === undefined) {
        void respond(res, actions, {
          clock: core.clock,
          arrival: at.monotonic,
          performed,
          ...(log ? { log } : {}),
        });
      }
    });
  });

  return listenOnLoopback(server, options);
}

const NO_BYTES = new Uint8Array(0);

function ignore(): void {
  // A request's or socket's error (the peer went away) ends the exchange: nothing to answer.
}

/**
 * Request metadata with lower-cased header names. Node already lower-cases names and joins
 * repeated headers into one string (all but set-cookie), so its own map is handed on as is (the
 * engine copies what it records) unless a value is still a list.
 */
function httpMeta(req: IncomingMessage): HttpMeta {
  const method = req.method ?? 'POST';
  const path = req.url ?? '/';
  const given = req.headers;
  for (const name in given) {
    if (typeof given[name] !== 'string') return { method, path, headers: joined(given) };
  }
  return { method, path, headers: given as Record<string, string> };
}

function joined(given: IncomingMessage['headers']): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}
