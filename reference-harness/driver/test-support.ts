import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { JsonValue } from '../../protocol/json.js';
import { NdjsonDecoder } from '../../protocol/ndjson.js';
import { runReferenceDriver, type ReferenceDriverIo } from './driver.js';

/**
 * A tiny stdio backend written out at test time. It logs its PID on start and every line it
 * receives, and answers `hooks/intercept` by the tool input: `{deny: reason}` denies,
 * `{crash: true}` exits 3 without a reply, `{hang: true}` never answers, anything else is `[]`.
 */
const BACKEND_SOURCE = `
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
const log = process.argv[2];
appendFileSync(log, JSON.stringify({ pid: process.pid }) + '\\n');
createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  appendFileSync(log, line + '\\n');
  const msg = JSON.parse(line);
  if (msg.method !== 'hooks/intercept') return;
  const input = msg.params.event.tool.input;
  if (input.crash) process.exit(3);
  if (input.hang) return;
  const effects = typeof input.deny === 'string' ? [{ type: 'deny', reason: input.deny }] : [];
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: 'draft', effects } }) + '\\n');
});
`;

/** One line the test backend logged: its start (`pid`) or a frame it received. */
export interface BackendLogLine {
  pid?: number;
  method?: string;
  id?: string;
  params?: { event?: { id?: string; call?: { id?: string } } };
}

/** The written-out backend, its log, and registrations that point at it. */
export interface TestBackend {
  received(): BackendLogLine[];
  frames(): BackendLogLine[];
  pids(): number[];
  registration(options?: {
    lifecycle?: 'persistent' | 'per_event';
    failurePolicy?: 'fail-open' | 'fail-closed' | undefined;
    timeoutMs?: number;
  }): { protocolVersion: string; hooks: Array<Record<string, JsonValue>> };
  remove(): void;
}

/** Writes the backend into a fresh temporary directory. */
export function writeTestBackend(): TestBackend {
  const dir = mkdtempSync(join(tmpdir(), 'ahp-ref-driver-'));
  const script = join(dir, 'backend.mjs');
  const logFile = join(dir, 'received.ndjson');
  writeFileSync(script, BACKEND_SOURCE);
  writeFileSync(logFile, '');
  const received = () =>
    readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as BackendLogLine);
  return {
    received,
    frames: () => received().filter((l) => l.pid === undefined),
    pids: () => received().flatMap((l) => (l.pid === undefined ? [] : [l.pid])),
    registration: (options = {}) => {
      const { lifecycle = 'persistent', timeoutMs = 10_000 } = options;
      // An explicit `failurePolicy: undefined` leaves the policy out, for refusal cases.
      const failurePolicy = 'failurePolicy' in options ? options.failurePolicy : 'fail-closed';
      const subscription: Record<string, JsonValue> = {
        events: ['tool.before'],
        mode: 'intercept',
        timeoutMs,
        content: { default: 'body' },
      };
      if (failurePolicy !== undefined) subscription.failurePolicy = failurePolicy;
      return {
        protocolVersion: 'draft',
        hooks: [
          {
            id: 'com.example.inline',
            transport: { type: 'stdio', command: process.execPath, args: [script, logFile], lifecycle },
            subscriptions: [subscription],
          },
        ],
      };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A JSON-RPC answer as the driver wrote it. */
export interface Answer {
  id: JsonValue;
  result?: Record<string, JsonValue>;
  error?: { code: number; message: string; data?: Record<string, JsonValue> };
}

/** The driver run in-process over PassThrough streams, with a small line-level client. */
export interface InProcessDriver {
  request(method: string, params?: JsonValue): Promise<Answer>;
  /** Writes raw text on the driver's stdin; answers with a null id are collected in `orphans`. */
  raw(text: string): void;
  orphans: Answer[];
  /** Resolves at the next answer with a null id. */
  nextOrphan(): Promise<Answer>;
  stderr(): string;
  /** Ends stdin and resolves with the driver's exit code. */
  end(): Promise<number>;
  done: Promise<number>;
}

/** Starts `runReferenceDriver` on PassThrough streams. */
export function startInProcess(extra: Partial<ReferenceDriverIo> = {}): InProcessDriver {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let stderrText = '';
  stderr.on('data', (c: Buffer) => (stderrText += c.toString('utf8')));
  const done = runReferenceDriver({ stdin, stdout, stderr, env: { PATH: process.env.PATH }, ...extra });
  const waiters = new Map<number, (a: Answer) => void>();
  const orphanWaiters: Array<(a: Answer) => void> = [];
  const orphans: Answer[] = [];
  const decoder = new NdjsonDecoder();
  stdout.on('data', (chunk: Buffer) => {
    for (const item of decoder.push(chunk)) {
      if (item.kind !== 'frame') throw new Error(`the driver wrote a bad line: ${item.message}`);
      const answer = item.value as unknown as Answer;
      if (typeof answer.id === 'number' && waiters.has(answer.id)) {
        waiters.get(answer.id)?.(answer);
        waiters.delete(answer.id);
      } else {
        orphans.push(answer);
        orphanWaiters.shift()?.(answer);
      }
    }
  });
  let next = 1;
  return {
    request: (method, params = {}) =>
      new Promise((resolve) => {
        const id = next++;
        waiters.set(id, resolve);
        stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      }),
    raw: (text) => stdin.write(text),
    orphans,
    nextOrphan: () => new Promise((resolve) => orphanWaiters.push(resolve)),
    stderr: () => stderrText,
    end: () => {
      stdin.end();
      return done;
    },
    done,
  };
}

/** Waits until `condition` holds, checking every few milliseconds; fails after `limitMs`. */
export async function waitFor(condition: () => boolean, limitMs = 10_000): Promise<void> {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > limitMs) throw new Error(`condition not met within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
