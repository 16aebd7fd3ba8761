// The persistent-stdio adapter of the real portion: each harness spawns the hostile stdio child
// through the real persistent transport, and keeps it as long as the child behaves.
import { fileURLToPath } from 'node:url';
import { createHarness, type Harness } from '../../reference-harness/index.js';
import { REAL_STDIO_PROFILE, hostileStreamArb } from './hostile-arbitraries.js';
import { delayBefore, type HostileStream } from './hostile-model.js';
import { judgedLate, stdioAllowed, type TimingBands } from './real-expectations.js';
import { ControlChannel } from './real-control.js';
import type { RealAdapter, RealCall } from './real-run.js';
import { registrationFor } from './run-support.js';
import { processAlive } from '../../protocol/process-alive.js';

const HOSTILE_STDIO = fileURLToPath(
  new URL('../../reference-harness/test-backends/hostile-stdio.mjs', import.meta.url),
);

/** Named margins for real processes on a noisy 2-core VM, all scaled by `scale`. */
export interface RealMargins {
  /** A node child may take this long to boot before the first request reaches it. */
  spawnMs: number;
  /** A pause in the script must exceed the deadline by this much to be firmly late. */
  lateGuardMs: number;
  /** How long a script may run past its own pauses before the driver calls it stuck. */
  scriptSlackMs: number;
}

/** The end of a stream, for a real child: EOF means it exits after the script. */
const endOf = (stream: HostileStream): 'stay' | 'exit' => (stream.end === 'eof' ? 'exit' : 'stay');

/**
 * Whether bytes after the first line can reach the next call: only when that line was a JSON
 * frame (a framing fault, or no line at all, gets the child replaced before the next call).
 */
function leavesBytes(bytes: Uint8Array, frameCap: number): boolean {
  const nl = bytes.indexOf(0x0a);
  if (nl === -1 || nl === bytes.length - 1) return false;
  const line = bytes.subarray(0, nl);
  return line.length <= frameCap + 1 && isJsonFrame(line);
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** True when a line is one JSON value in UTF-8, whatever it means. */
function isJsonFrame(line: Uint8Array): boolean {
  try {
    JSON.parse(utf8.decode(line.at(-1) === 0x0d ? line.subarray(0, line.length - 1) : line));
    return true;
  } catch {
    return false;
  }
}

/** Builds the stdio adapter; `start` must resolve before use. */
export async function stdioAdapter(margins: RealMargins, killGraceMs: number): Promise<RealAdapter> {
  const control = new ControlChannel();
  await control.start();
  const harnesses = new Map<string, Harness>();
  const timeoutMs = REAL_STDIO_PROFILE.timeoutsMs[0] as number;
  const bands: TimingBands = {
    inTimeMs: timeoutMs - margins.spawnMs,
    lateMs: timeoutMs + margins.lateGuardMs,
  };
  const profile = { ...REAL_STDIO_PROFILE, hugeTimeoutMs: timeoutMs };

  /** Requests a child took (and so ran the script of). */
  const taken = new Set<string>();
  const settleChild = async (call: RealCall): Promise<string | undefined> => {
    const sent = call.result.transcript.some((e) => e.direction === 'out');
    if (!sent) return undefined;
    const bound = performance.now() + delayBefore(call.chunks, call.bytes.length) + margins.scriptSlackMs;
    // Wait for the script to finish (or its child to die); a request written to a child that
    // had already exited is never taken, which shows as no live child.
    while (!control.finished(call.requestId)) {
      if (control.pidOf(call.requestId) === undefined && call.harness.livePids().length === 0)
        return undefined;
      if (performance.now() > bound)
        return `the hostile child never finished the script of ${call.requestId}`;
      await control.changed(25);
    }
    const pid = control.pidOf(call.requestId);
    if (pid !== undefined) taken.add(call.requestId);
    control.forget(call.requestId);
    if (endOf(call.stream) === 'exit' && pid !== undefined) {
      // The next call must find the exit noticed, or it would race the harness's own bookkeeping.
      while (call.harness.livePids().includes(pid)) {
        if (performance.now() > bound + killGraceMs) return `the harness never saw child ${pid} exit`;
        await control.changed(5);
      }
    }
    return undefined;
  };

  return {
    name: 'real-stdio',
    arb: hostileStreamArb(profile).map((s) => ({ ...s, timeoutMs })),
    harnessFor(lane, policy) {
      const key = `${lane}:${policy}`;
      let harness = harnesses.get(key);
      if (!harness) {
        const transport = {
          type: 'stdio',
          command: process.execPath,
          args: [HOSTILE_STDIO, '--control', String(control.port)],
          lifecycle: 'persistent',
        };
        harness = createHarness({
          registration: registrationFor(transport, { policy, timeoutMs }),
          advertisedEffects: ['deny'],
          killGraceMs,
        });
        harnesses.set(key, harness);
      }
      return harness;
    },
    scriptExtras: (stream) => ({ end: endOf(stream) }),
    afterCall: settleChild,
    allowed: (call) =>
      stdioAllowed(
        call.bytes,
        call.chunks,
        call.requestId,
        endOf(call.stream),
        profile.frameCapBytes,
        bands,
        judgedLate(call.result.audit[0], timeoutMs),
      ),
    taints: (call) => {
      // A call that read stale bytes as its reply leaves its own reply unread for the next one.
      const ranScript = taken.delete(call.requestId);
      const failed = call.result.audit[0]?.outcome === 'operational-failure';
      return leavesBytes(call.bytes, profile.frameCapBytes) || (call.tainted && ranScript && failed);
    },
    async close() {
      const problems: string[] = [];
      await Promise.all([...harnesses.values()].map((h) => h.close()));
      for (const h of harnesses.values()) {
        if (h.livePids().length > 0)
          problems.push(`harness left processes running: ${h.livePids().join(', ')}`);
      }
      await control.stop();
      const alive = [...control.pids].filter((pid) => !!processAlive(pid));
      if (alive.length > 0) problems.push(`hostile children still running after close: ${alive.join(', ')}`);
      return problems;
    },
  };
}
