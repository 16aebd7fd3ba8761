/**
 * A small JSON client for the control API over node:http with one keep-alive connection. Used by
 * stdio mock processes on every frame, so it avoids fetch (undici loads slowly and costs more per
 * request than node:http on loopback).
 */
import { Agent, request } from 'node:http';

/** A control request that failed: unreachable, timed out, or answered with an error status. */
export class ControlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ControlError';
  }
}

/** A client bound to one control server. */
export interface ControlClient {
  readonly url: string;
  /** Sends JSON (or nothing) and resolves with the JSON answer; rejects with ControlError. */
  call(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, timeoutMs?: number): Promise<unknown>;
  /** Releases the keep-alive connection. */
  close(): void;
}

/** Default bound on one control round trip; generous, since a loaded machine can stall for seconds. */
export const CONTROL_TIMEOUT_MS = 30_000;

/** A client for the control server at `url` (e.g. `http://127.0.0.1:4567/`). */
export function controlClient(url: string): ControlClient {
  const base = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return {
    url,
    call(method, path, body, timeoutMs = CONTROL_TIMEOUT_MS) {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const target = new URL(path.replace(/^\//, ''), base);
      return new Promise<unknown>((resolve, reject) => {
        const req = request(
          target,
          {
            method,
            agent,
            timeout: timeoutMs,
            headers: payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {},
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('error', (e) =>
              reject(new ControlError(`control server ${url} failed mid-answer (${e.message})`)),
            );
            res.on('end', () => {
              const text = Buffer.concat(chunks).toString('utf8');
              let value: unknown;
              try {
                value = text === '' ? undefined : JSON.parse(text);
              } catch {
                reject(new ControlError(`control server ${url} answered ${method} ${path} with non-JSON`));
                return;
              }
              const status = res.statusCode ?? 0;
              if (status >= 200 && status < 300) resolve(value);
              else {
                const detail = (value as { error?: unknown } | undefined)?.error;
                reject(
                  new ControlError(
                    `control server ${url} answered ${method} ${path} with ${status}: ${String(detail)}`,
                  ),
                );
              }
            });
          },
        );
        req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
        req.on('error', (e: NodeJS.ErrnoException) =>
          reject(new ControlError(`control server ${url} is unreachable (${e.code ?? e.message})`)),
        );
        req.end(payload);
      });
    },
    close() {
      agent.destroy();
    },
  };
}
