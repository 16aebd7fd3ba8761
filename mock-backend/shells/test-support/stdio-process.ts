/**
 * Test support: a spawned stdio mock process seen from the harness side, with its stdout as raw
 * bytes (and arrival times), its stderr, and its end. Waits are event-driven with named margins.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { StdioCommand } from '../../control/mock-control.js';

/**
 * Named real-time margins. This 2-core VM is shared and noisy: a node + tsx child takes ~0.4 s
 * quiet and several seconds under load, so every bound is many times the typical cost. They
 * bound failures only; passing tests never wait for them.
 */
export const MOCK_PROCESS_MARGINS = {
  /** Boot of a spawned mock (node + tsx + control registration) plus its first reply. */
  spawnMs: 30_000,
  /** A reply that is due must arrive within this. */
  replyMs: 15_000,
  /** How long a test watches for something that must NOT happen (a hang staying silent). */
  quietMs: 300,
} as const;

/** Test timeout for files that spawn mocks. */
export const SPAWN_TEST_TIMEOUT_MS = 90_000;

/** How a process ended. */
export interface ProcessEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A spawned mock. */
export interface MockProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Every stdout byte so far. */
  stdout(): Buffer;
  /** Arrival times (performance.now()) of each stdout chunk, with the byte offset it started at. */
  stdoutChunks(): Array<{ at: number; offset: number }>;
  stderr(): string;
  /** True once stdout reached EOF. */
  stdoutEnded(): boolean;
  readonly exited: Promise<ProcessEnd>;
  write(data: string | Uint8Array): void;
  endStdin(data?: string | Uint8Array): void;
  /** Resolves once `predicate` holds (checked on every stdout/stderr event); rejects after `timeoutMs`. */
  until(predicate: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** Kills the process if it still runs (SIGKILL) and waits for its end. */
  dispose(): Promise<void>;
}

/** Spawns `command` with an empty environment, as a strict harness would. */
export function spawnMock(command: StdioCommand, env: Record<string, string> = {}): MockProcess {
  const child = spawn(command.command, command.args, { stdio: ['pipe', 'pipe', 'pipe'], env });
  let out = Buffer.alloc(0);
  let err = '';
  let outEnded = false;
  let end: ProcessEnd | undefined;
  const chunks: Array<{ at: number; offset: number }> = [];
  const waiters = new Set<() => void>();
  const wake = () => [...waiters].forEach((w) => w());
  child.stdout?.on('data', (c: Buffer) => {
    chunks.push({ at: performance.now(), offset: out.length });
    out = Buffer.concat([out, c]);
    wake();
  });
  child.stdout?.on('end', () => {
    outEnded = true;
    wake();
  });
  child.stderr?.on('data', (c: Buffer) => {
    err += c.toString('utf8');
    wake();
  });
  // Writes after the mock closed stdin or died are the mock's business, not a test crash.
  child.stdin?.on('error', () => undefined);
  const exited = new Promise<ProcessEnd>((resolve) => {
    child.on('exit', (code, signal) => {
      end = { code, signal };
      resolve(end);
      wake();
    });
  });
  const self: MockProcess = {
    child,
    pid: child.pid ?? -1,
    stdout: () => out,
    stdoutChunks: () => chunks,
    stderr: () => err,
    stdoutEnded: () => outEnded,
    exited,
    write: (data) => void child.stdin?.write(data),
    endStdin: (data) => void (data === undefined ? child.stdin?.end() : child.stdin?.end(data)),
    until(predicate, what, timeoutMs = MOCK_PROCESS_MARGINS.replyMs) {
      if (predicate()) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `${what} did not happen within ${timeoutMs} ms; stdout=${JSON.stringify(out.toString('utf8'))} stderr=${JSON.stringify(err)} end=${JSON.stringify(end)}`,
            ),
          );
        }, timeoutMs);
        const check = () => {
          if (!predicate()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      });
    },
    async dispose() {
      if (!end) child.kill('SIGKILL');
      await exited;
    },
  };
  return self;
}
