/**
 * The msw shell: request handlers that run the same engine for in-process `fetch` interception.
 * A head resolves the handler with a streamed Response; writes, end and reset drive the stream,
 * so delays, slow bodies, hangs and mid-body resets behave as they do over a socket.
 */
import { http, type HttpHandler, type Path } from 'msw';
import { DEFAULT_MAX_FRAME_BYTES } from '../../protocol/ndjson.js';
import type { Action, HttpMeta, InboundFrame } from '../model.js';
import { runActions, type RunOptions } from './scheduler.js';
import type { MockCore } from './mock-core.js';

/** Options of the msw handlers. */
export interface MswHandlerOptions {
  /** The backend URL the harness posts to (an msw path: absolute URL, relative path or pattern). */
  url: Path;
  log?: (text: string) => void;
}

/** Something that carries a core: a MockCore itself, or a started mock. */
export type MockCoreSource = MockCore | { core: MockCore };

/** msw handlers serving `mock`'s scenario at `options.url` (every method: the engine judges it). */
export function mswHandlers(mock: MockCoreSource, options: MswHandlerOptions): HttpHandler[] {
  const core = 'core' in mock ? mock.core : mock;
  let requests = 0;
  return [
    http.all(options.url, async ({ request }) => {
      const body = new Uint8Array(await request.arrayBuffer());
      const at = core.now();
      // The same cap as the HTTP shell, so a body means the same on both.
      const tooLarge = body.length > DEFAULT_MAX_FRAME_BYTES;
      const frame: InboundFrame = {
        bytes: tooLarge ? new Uint8Array(0) : body,
        transport: 'msw',
        // fetch has no connection to name; each intercepted request is its own.
        connectionId: `m${++requests}`,
        at,
        http: httpMeta(request),
      };
      if (tooLarge) frame.fault = 'too-large';
      const { actions, delivery } = core.step(frame);
      return streamedResponse(actions, {
        clock: core.clock,
        arrival: at.monotonic,
        performed: core.performedFor(delivery, frame.connectionId),
        signal: request.signal,
        ...(options.log ? { log: options.log } : {}),
      });
    }),
  ];
}

/** Statuses whose Response must have a null body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function streamedResponse(
  actions: readonly Action[],
  options: Omit<RunOptions, 'perform'> & { signal: AbortSignal; log?: (text: string) => void },
): Promise<Response> {
  const { signal, log } = options;
  return new Promise<Response>((resolve) => {
    let body!: ReadableStreamDefaultController<Uint8Array>;
    let resetWhenDrained = false;
    // Erroring a stream drops whatever is still queued, here and in every stream piped or teed
    // from it (msw clones responses). So a reset waits until the bytes before it were pulled, then
    // one more macrotask, by which time they have travelled on to the reader.
    const reset = (): void =>
      void setTimeout(() => body.error(new TypeError('mock-backend: connection reset')), 0);
    const stream = new ReadableStream<Uint8Array>({
      start: (c) => void (body = c),
      pull: () => {
        if (resetWhenDrained) reset();
        resetWhenDrained = false;
      },
    });
    let responded = false;
    let closed = false;
    const answer = (response: Response): void => {
      if (responded) return;
      responded = true;
      resolve(response);
    };
    // A hang before the head never resolves; an aborted fetch still lets the handler go.
    signal.addEventListener('abort', () => answer(Response.error()), { once: true });

    const perform = (action: Action): void => {
      switch (action.type) {
        case 'head':
          answer(makeResponse(action.status, action.headers, stream, log));
          return;
        case 'write':
          if (!responded) answer(makeResponse(200, {}, stream, log));
          if (!closed) body.enqueue(action.bytes.slice());
          return;
        case 'end':
          if (!responded) answer(makeResponse(200, {}, stream, log));
          if (!closed) body.close();
          closed = true;
          return;
        case 'reset':
          if (!responded) answer(Response.error());
          else if (!closed && (body.desiredSize ?? 0) > 0) reset();
          else if (!closed) resetWhenDrained = true;
          closed = true;
          return;
        case 'log':
          log?.(action.text);
          return;
        // `hang` is carried out by doing nothing; `exit` and `signal` are never planned for msw.
        default:
          return;
      }
    };
    void runActions(actions, { ...options, perform });
  });
}

function makeResponse(
  status: number,
  headers: Record<string, string>,
  stream: ReadableStream<Uint8Array>,
  log?: (text: string) => void,
): Response {
  try {
    return new Response(NULL_BODY.has(status) ? null : stream, { status, headers });
  } catch (e) {
    // fetch cannot represent some scripted statuses (e.g. 1xx, or out of range): a network error instead.
    log?.(`mock-backend: status ${status} cannot be delivered through fetch (${(e as Error).message})`);
    return Response.error();
  }
}

function httpMeta(request: Request): HttpMeta {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name.toLowerCase()] = value));
  return { method: request.method, path: `${url.pathname}${url.search}`, headers };
}
