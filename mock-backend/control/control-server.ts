/**
 * The control server: the routes of control-routes.ts over node:http on loopback, JSON in and out.
 * It owns the core that stdio mock processes step their frames on, so a `sequence` counts
 * attempts across per_event processes exactly as it does across HTTP requests.
 */
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import type { JsonValue } from '../../protocol/json.js';
import type { MockCore } from '../shells/mock-core.js';
import { route, type ControlState, type RouteResult, type ScenarioValidator } from './control-routes.js';
import type { ProcessRegistry } from './process-registry.js';
import { listenOnLoopback } from '../shells/listen-loopback.js';

/** Largest control request body accepted (a scenario or a frame with its bytes). */
export const MAX_CONTROL_BODY_BYTES = 32 * 1024 * 1024;

/** Options of the control server. */
export interface ControlServerOptions {
  host?: string;
  /** Default 0: the OS picks a free port. */
  port?: number;
  validate: ScenarioValidator;
}

/** A listening control server. */
export interface ControlServer {
  /** `http://127.0.0.1:PORT/`. */
  readonly url: string;
  readonly port: number;
  /** Stops listening and closes every connection. Safe to repeat. */
  close(): Promise<void>;
}

/** Starts the control API over `core` and `registry`. */
export async function startControlServer(
  core: MockCore,
  registry: ProcessRegistry,
  options: ControlServerOptions,
): Promise<ControlServer> {
  const state: ControlState = { core, registry, validate: options.validate };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_CONTROL_BODY_BYTES) chunks.push(chunk);
    });
    req.on('error', () => undefined);
    req.on('end', () => {
      let result: RouteResult;
      if (size > MAX_CONTROL_BODY_BYTES) {
        result = {
          status: 413,
          body: { error: `control request bodies are capped at ${MAX_CONTROL_BODY_BYTES} bytes` },
        };
      } else {
        const parsed = parseBody(Buffer.concat(chunks));
        // `$controlUrl/recordings` with the announced `.../` gives `//recordings`, which URL
        // parsing would read as a host: the path is taken as given, repeated slashes as one.
        const url = new URL((req.url ?? '/').replace(/^\/{2,}/, '/'), 'http://control.invalid');
        result = parsed.ok
          ? safeRoute(state, req.method ?? 'GET', url, parsed.value)
          : { status: 400, body: { error: 'the control request body is not JSON' } };
      }
      const text = JSON.stringify(result.body);
      res.writeHead(result.status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
    });
  });
  server.on('connection', (socket: Socket) => socket.on('error', () => undefined));
  return listenOnLoopback(server, options);
}

function safeRoute(...args: Parameters<typeof route>): RouteResult {
  try {
    return route(...args);
  } catch (e) {
    // route() is written not to throw; this keeps a bug from taking the control server down.
    return {
      status: 500,
      body: { error: `control route failed: ${e instanceof Error ? e.message : String(e)}` },
    };
  }
}

function parseBody(bytes: Buffer): { ok: true; value: JsonValue | undefined } | { ok: false } {
  if (bytes.length === 0) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(bytes.toString('utf8')) as JsonValue };
  } catch {
    return { ok: false };
  }
}
