import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';
import type { SendContext } from '../transport.js';

/** The misbehaving stdio backend script the transport tests spawn. */
export const STDIO_BACKEND = fileURLToPath(new URL('./stdio-backend.mjs', import.meta.url));

/**
 * Named margins for tests that need real time (child processes, sockets). This 2-core VM is
 * noisy and a node child takes ~150 ms to boot, so every bound is several times the typical cost.
 */
export const TEST_BACKEND_MARGINS = {
  /** SIGTERM grace given to transports under test. */
  killGraceMs: 300,
  /** Extra time allowed beyond a grace for the reap to be observed. */
  reapMs: 1500,
  /** "At once": an abort must settle the request well within this, whatever the backend does. */
  promptMs: 500,
  /** How long a "slow" backend waits before replying: far longer than `promptMs`. */
  slowReplyMs: 1500,
} as const;

/** A JSON-RPC request frame whose params steer the test backend (`mode`, `delayMs`). */
export function requestFrame(id: number | string, params: Record<string, unknown> = {}): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'hooks/intercept', params });
}

/** A notification frame for the test backend. */
export function notificationFrame(params: Record<string, unknown> = {}): string {
  return JSON.stringify({ jsonrpc: '2.0', method: 'hooks/observe', params });
}

/**
 * Counts of the libuv handle kinds a transport may leave behind. libuv frees a closed handle in
 * the close phase of the loop turn after `close()`, so two loop turns pass before counting.
 */
export async function handleCounts(): Promise<Record<'ProcessWrap' | 'PipeWrap' | 'TCPSocketWrap', number>> {
  for (let i = 0; i < 2; i++) await new Promise<void>((r) => setImmediate(r));
  const info = process.getActiveResourcesInfo();
  const count = (kind: string) => info.filter((r) => r === kind).length;
  return {
    ProcessWrap: count('ProcessWrap'),
    PipeWrap: count('PipeWrap'),
    TCPSocketWrap: count('TCPSocketWrap'),
  };
}

/** Resolves once `file` exists and is non-empty (a backend wrote its record). */
export async function fileWritten(file: string, timeoutMs: number): Promise<void> {
  await vi.waitFor(
    () => {
      if ((statSync(file, { throwIfNoEntry: false })?.size ?? 0) === 0)
        throw new Error(`${file} not written yet`);
    },
    { timeout: timeoutMs },
  );
}

/** A send context that records the transcript and late replies, with events a test can await. */
export interface RecordingContext extends SendContext {
  controller: AbortController;
  frames: Array<{ direction: 'out' | 'in'; text: string }>;
  lateReplies: string[];
  /** Resolves once `n` frames in `direction` were recorded. */
  framesSeen(direction: 'out' | 'in', n: number): Promise<void>;
  /** Resolves at the first late reply. */
  lateReply(): Promise<string>;
}

/** Builds a recording context with its own abort controller. */
export function recordingContext(): RecordingContext {
  const controller = new AbortController();
  const frames: RecordingContext['frames'] = [];
  const lateReplies: string[] = [];
  const waiters: Array<() => void> = [];
  const wake = () => {
    for (const w of waiters.splice(0)) w();
  };
  const until = async (ready: () => boolean) => {
    while (!ready()) await new Promise<void>((r) => waiters.push(r));
  };
  return {
    controller,
    signal: controller.signal,
    frames,
    lateReplies,
    onFrame(direction, raw) {
      frames.push({ direction, text: Buffer.from(raw).toString('latin1') });
      wake();
    },
    onLateReply(raw) {
      lateReplies.push(Buffer.from(raw).toString('utf8'));
      wake();
    },
    framesSeen: (direction, n) => until(() => frames.filter((f) => f.direction === direction).length >= n),
    lateReply: async () => {
      await until(() => lateReplies.length > 0);
      return lateReplies[0] as string;
    },
  };
}
