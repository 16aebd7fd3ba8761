import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FailurePolicy } from '../../protocol/failure-classes.js';
import type { JsonValue } from '../../protocol/json.js';
import type { InvokeInput } from '../index.js';

/**
 * Real processes and sockets, so real time. Margins are generous on purpose: this 2-core VM is
 * noisy and a node child takes ~150 ms to boot, so no bound here is near a typical cost.
 */
export const MARGIN = {
  /** Deadline for calls that should be answered: several spawns' worth. */
  answerMs: 5000,
  /** Deadline for calls meant to time out: short, since it is always spent in full. */
  hangMs: 400,
  /** SIGTERM -> SIGKILL grace given to the harness. */
  killGraceMs: 300,
  /** "At once" after close or cancel, whatever the backend does. */
  promptMs: 1000,
} as const;

/** The scripted stdio backend of the harness integration tests. */
export const SCRIPTED_BACKEND = fileURLToPath(new URL('./harness-scripted-backend.mjs', import.meta.url));

/** A temporary directory and unique file names in it. */
export function tempFiles(): { file(name: string): string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'ahp-harness-it-'));
  let seq = 0;
  return {
    file: (name) => join(dir, `${name}-${++seq}`),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A stdio transport entry running the scripted backend with `flags`. */
export function scriptedStdio(lifecycle: 'persistent' | 'per_event', ...flags: string[]): JsonValue {
  return { type: 'stdio', command: process.execPath, args: [SCRIPTED_BACKEND, ...flags], lifecycle };
}

/** An intercept subscription on `tool.before`. */
export function interceptor(policy: FailurePolicy, timeoutMs: number): JsonValue {
  return {
    events: ['tool.before'],
    mode: 'intercept',
    timeoutMs,
    failurePolicy: policy,
    content: { default: 'omit' },
  };
}

/** An observe subscription on the tool family. */
export const observer: JsonValue = { events: ['tool.*'], mode: 'observe', content: { default: 'omit' } };

/** A registration document from backend entries. */
export function registrationDoc(
  hooks: Array<{ id: string; transport: JsonValue; subs: JsonValue[]; auth?: JsonValue }>,
): JsonValue {
  return {
    protocolVersion: 'draft',
    hooks: hooks.map((h) => ({
      id: h.id,
      transport: h.transport,
      ...(h.auth ? { authentication: h.auth } : {}),
      subscriptions: h.subs,
    })),
  };
}

let callSeq = 0;
/** A `tool.before` input whose tool input steers the scripted backends (`mode`, ...). */
export function scriptedCall(input: Record<string, JsonValue>): InvokeInput {
  return { session: { id: 'sess_it' }, call: { id: `call_${++callSeq}` }, tool: { name: 'Bash', input } };
}

/** The HTTP twin of the scripted backend: node:http on 127.0.0.1, port 0. */
export interface ScriptedHttpBackend {
  url: string;
  requests: Array<{ body: string; headers: IncomingMessage['headers'] }>;
  close(): Promise<void>;
}

type Msg = { id?: string; params?: { event?: { tool?: { input?: Record<string, unknown> } } } };

function answer(msg: Msg, res: ServerResponse): void {
  if (msg.id === undefined) {
    res.writeHead(204).end();
    return;
  }
  const json = (value: unknown, status = 200) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  const ok = (effects: unknown[]) =>
    json({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: 'draft', effects } });
  switch (msg.params?.event?.tool?.input?.mode) {
    case 'deny':
      return void ok([{ type: 'deny', reason: 'Denied by the HTTP backend.' }]);
    case 'hang':
      return;
    case 'status-500':
      return void json({ error: 'internal' }, 500);
    case 'garbage':
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('<html>oops</html>');
    case 'rpc-error':
      return void json({ jsonrpc: '2.0', id: msg.id, error: { code: -32004, message: 'backend exploded' } });
    case 'id-mismatch':
      return void json({
        jsonrpc: '2.0',
        id: `${msg.id}-x`,
        result: { protocolVersion: 'draft', effects: [] },
      });
    default:
      return void ok([]);
  }
}

/** Starts the HTTP backend; `close()` also destroys sockets held by hanging requests. */
export async function startScriptedHttpBackend(): Promise<ScriptedHttpBackend> {
  const requests: ScriptedHttpBackend['requests'] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ body, headers: req.headers });
      answer(JSON.parse(body) as Msg, res);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/ahp`,
    requests,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
