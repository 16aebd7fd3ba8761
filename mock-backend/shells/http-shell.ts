/**
 * The HTTP shell: a real node:http server on loopback. Each request body is one engine frame
 * (any method, any path: the engine judges them); the actions are carried out on the response.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { DEFAULT_MAX_FRAME_BYTES } from '../../protocol/ndjson.js';
import type { HttpMeta, InboundFrame } from '../model.js';
import { respond } from './http-responder.js';
import type { MockSession } from './session.js';
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

/** Starts the HTTP shell over `session`. */
export async function startHttpShell(
  session: MockSession,
  options: HttpShellOptions = {},
): Promise<HttpShell> {
  const connections = new WeakMap<Socket, string>();
  let nextConnection = 0;
  const server: Server = createServer();
  // Hanging and slow exchanges are the point of the mock: no server-side timeouts cut them short.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  server.on('connection', (socket: Socket) => {
    connections.set(socket, `c${++nextConnection}`);
    // A peer that resets the connection must not surface as an unhandled error.
    socket.on('error', () => undefined);
  });
  server.on('clientError', (_error, socket: Socket) => socket.destroy());
  server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      // Past the cap the body is not kept; the engine records the frame as too large.
      if (size + chunk.length <= DEFAULT_MAX_FRAME_BYTES) chunks.push(chunk);
      size += chunk.length;
    });
    req.on('error', () => undefined);
    req.on('end', () => {
      const at = session.now();
      const tooLarge = size > DEFAULT_MAX_FRAME_BYTES;
      const frame: InboundFrame = {
        bytes: tooLarge ? new Uint8Array(0) : new Uint8Array(Buffer.concat(chunks)),
        transport: 'http',
        connectionId: connections.get(req.socket) ?? 'c?',
        at,
        http: httpMeta(req),
      };
      if (tooLarge) frame.fault = 'too-large';
      const { actions } = session.step(frame);
      void respond(res, actions, {
        clock: session.clock,
        arrival: at.monotonic,
        ...(options.log ? { log: options.log } : {}),
      });
    });
  });

  return listenOnLoopback(server, options);
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
