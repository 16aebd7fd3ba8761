import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as the test server saw it. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  /** Raw header pairs, to count repeated headers exactly. */
  rawHeaders: string[];
  body: string;
  remotePort: number | undefined;
}

/** Answers one recorded request; the default replies 200 with a JSON-RPC echo of the id. */
export type TestHandler = (req: RecordedRequest, res: ServerResponse, raw: IncomingMessage) => void;

/** A node:http server on 127.0.0.1, port 0, with a per-test handler and a request log. */
export interface TestServer {
  url(path?: string): string;
  readonly requests: RecordedRequest[];
  handle(handler: TestHandler): void;
  /** Sockets currently open to the server. */
  openSockets(): number;
  /** Resolves once `n` requests have arrived. */
  requestsSeen(n: number): Promise<void>;
  /** Resolves once no socket is open to the server. */
  socketsClosed(): Promise<void>;
  close(): Promise<void>;
}

/** Replies 200 `application/json` with a result for the request's id. */
export const echoHandler: TestHandler = (req, res) => {
  const id = (JSON.parse(req.body) as { id?: unknown }).id ?? null;
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id, result: { protocolVersion: 'draft', effects: [] } }));
};

/** Starts a test server; close it in `afterEach`. */
export async function startTestServer(): Promise<TestServer> {
  let handler: TestHandler = echoHandler;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const waiters: Array<() => void> = [];
  const wake = () => {
    for (const w of waiters.splice(0)) w();
  };
  const until = async (ready: () => boolean) => {
    while (!ready()) await new Promise<void>((r) => waiters.push(r));
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks).toString('utf8'),
        remotePort: req.socket.remotePort,
      };
      requests.push(recorded);
      wake();
      handler(recorded, res, req);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/ahp/intercept') => `http://127.0.0.1:${port}${path}`,
    requests,
    handle: (h) => {
      handler = h;
    },
    openSockets: () => sockets.size,
    requestsSeen: (n) => until(() => requests.length >= n),
    socketsClosed: () => until(() => sockets.size === 0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
