/**
 * Carries out one exchange's actions on a node:http response: head, body writes, end, hang, and a
 * TCP reset of the socket. Bytes go out exactly as planned; nothing re-encodes them.
 */
import type { ServerResponse } from 'node:http';
import type { Action } from '../model.js';
import { runActions, type RunOptions, type RunOutcome } from './scheduler.js';

/** Statuses that must not carry a body or a Content-Length (RFC 9110 §8.6). */
function bodyless(status: number): boolean {
  return status < 200 || status === 204 || status === 304;
}

/**
 * The whole body when the whole response is due at one instant (`head`, writes, `end`): it is
 * then sent at once with a Content-Length, the friendliest form for keep-alive clients and one
 * write on the socket. Anything spread over time (a delayed chunk, a slow body, a hang, a reset)
 * streams chunked instead.
 */
export function immediateBody(actions: readonly Action[]): Buffer | undefined {
  const first = actions[0];
  const last = actions[actions.length - 1];
  if (first?.type !== 'head' || last?.type !== 'end') return undefined;
  let only: Uint8Array | undefined;
  let parts: Uint8Array[] | undefined;
  for (let i = 1; i < actions.length; i++) {
    const a = actions[i] as Action;
    if (a.afterMs !== first.afterMs) return undefined;
    if (a.type === 'write') {
      if (only === undefined && parts === undefined) only = a.bytes;
      else (parts ??= [only as Uint8Array]).push(a.bytes);
    } else if (a.type !== 'end') return undefined;
  }
  // One write (the usual reply) is viewed, not copied.
  if (parts !== undefined) return Buffer.concat(parts);
  return only === undefined ? Buffer.alloc(0) : Buffer.from(only.buffer, only.byteOffset, only.byteLength);
}

/** The abort reason when the connection closes before the run is over (made once: no stack per request). */
const PEER_GONE = new Error('the HTTP connection closed before the exchange was over');

/**
 * Head and body in one write. The body goes as a latin1 string (one char per byte, so the bytes
 * are exactly the planned ones): node then sends head and body as one string, where a Buffer body
 * would go out as a second chunk of a writev.
 */
function writeWhole(res: ServerResponse, head: Extract<Action, { type: 'head' }>, whole: Buffer): void {
  const headers: Record<string, string | number> = { ...head.headers };
  if (bodyless(head.status)) {
    res.writeHead(head.status, headers);
    res.end();
    return;
  }
  headers['content-length'] = whole.length;
  res.writeHead(head.status, headers);
  res.end(whole.toString('latin1'), 'latin1');
}

/** Options of one response: when and how to run its actions (see runActions), and where to log. */
export type RespondOptions = Pick<RunOptions, 'clock' | 'arrival' | 'performed'> & {
  log?: (text: string) => void;
};

/**
 * The common exchange, a whole reply due on arrival, sent here and now: no scheduler, promise,
 * controller or closure. Returns the outcome, or undefined (nothing done) when the actions need
 * `respond`.
 */
export function respondAtOnce(
  res: ServerResponse,
  actions: readonly Action[],
  log: ((text: string) => void) | undefined,
): RunOutcome | undefined {
  const first = actions[0];
  if (first?.type !== 'head' || first.afterMs !== 0) return undefined;
  const whole = immediateBody(actions);
  if (whole === undefined) return undefined;
  try {
    writeWhole(res, first, whole);
    return 'done';
  } catch {
    if (!res.writableEnded && !res.destroyed) {
      log?.('mock-backend: an HTTP action could not be carried out; the socket was destroyed');
      res.destroy();
    }
    return 'stopped';
  }
}

/**
 * Runs the actions on `res`; resolves with the run's outcome once it is over (or hangs forever).
 * Any actions work here; the shell tries `respondAtOnce` first, so only scheduled ones get here.
 */
export function respond(
  res: ServerResponse,
  actions: readonly Action[],
  options: RespondOptions,
): Promise<RunOutcome> {
  // The client went away (or we reset the socket): pending actions have nowhere to go. Only a
  // run that waits can have pending actions, so an immediate one skips the controller; a finished
  // one is not aborted (a response always closes, and an abort with its exception cost more per
  // request than the rest of the exchange).
  const whole = immediateBody(actions);
  let settled = false;
  const stop = actions.some((a) => a.afterMs > 0) ? new AbortController() : undefined;
  if (stop) {
    res.on('close', () => {
      if (!settled) stop.abort(PEER_GONE);
    });
  }
  let lastWrite: Promise<void> = Promise.resolve();

  const perform = (action: Action): void | Promise<void> => {
    switch (action.type) {
      case 'head':
        if (whole === undefined) res.writeHead(action.status, { ...action.headers });
        // Head and body in one go; the writes and the end that follow find the response ended.
        else writeWhole(res, action, whole);
        return;
      case 'write':
        if (res.writableEnded) return;
        lastWrite = new Promise<void>((resolve) => {
          res.write(action.bytes, () => resolve());
        });
        return;
      case 'end':
        if (!res.writableEnded) res.end();
        return;
      case 'reset':
        // Let planned bytes reach the wire first, so "reset after N bytes" means exactly that.
        return lastWrite.then(() => {
          const socket = res.socket;
          if (socket && !socket.destroyed) socket.resetAndDestroy();
        });
      case 'log':
        options.log?.(action.text);
        return;
      // `hang` is carried out by doing nothing; `exit` and `signal` are never planned for HTTP.
      default:
        return;
    }
  };

  return runActions(actions, {
    clock: options.clock,
    arrival: options.arrival,
    perform,
    ...(options.performed ? { performed: options.performed } : {}),
    ...(stop ? { signal: stop.signal } : {}),
  }).then((outcome) => {
    settled = true;
    if (outcome === 'stopped' && !res.writableEnded && !res.destroyed) {
      // A perform failed (e.g. a status node refuses): end the exchange visibly rather than leak it.
      options.log?.('mock-backend: an HTTP action could not be carried out; the socket was destroyed');
      res.destroy();
    }
    return outcome;
  });
}
