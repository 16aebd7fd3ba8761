// The HTTP adapter of the real portion: one hostile HTTP server process, and harnesses that
// reach it through the real keep-alive HTTP transport.
import { fileURLToPath } from 'node:url';
import { createHarness, type Harness } from '../../reference-harness/index.js';
import { HTTP_PROFILE, httpStreamArb } from './hostile-arbitraries.js';
import type { HostileStream } from './hostile-model.js';
import { startServerProcess, type ServerProcess } from './bench-raw.js';
import { httpAllowed, judgedLate, type TimingBands } from './real-expectations.js';
import type { RealAdapter } from './real-run.js';
import type { RealMargins } from './real-stdio.js';
import { registrationFor } from './run-support.js';

const HOSTILE_HTTP = fileURLToPath(
  new URL('../../reference-harness/test-backends/hostile-http.mjs', import.meta.url),
);
/** The harness's default body cap (reference-harness/transports/http-reply.ts). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The headers a script asks the server to send. */
function headersOf(stream: HostileStream, bodyBytes: number): Record<string, string> {
  const http = stream.http;
  const headers: Record<string, string> = {};
  if (http?.contentType) headers['content-type'] = http.contentType;
  if (http?.contentLength && http.status !== 204 && http.status !== 304)
    headers['content-length'] = String(bodyBytes);
  return headers;
}

/** Builds the HTTP adapter: starts the hostile server process. */
export async function httpAdapter(margins: RealMargins): Promise<RealAdapter> {
  const server: ServerProcess = await startServerProcess(HOSTILE_HTTP, margins.spawnMs * 10);
  const harnesses = new Map<string, Harness>();
  const timeoutMs = HTTP_PROFILE.timeoutsMs[0] as number;
  // No spawn per request here, but the same loaded machine: the in-time band keeps half a deadline.
  const bands: TimingBands = { inTimeMs: timeoutMs / 2, lateMs: timeoutMs + margins.lateGuardMs };
  const profile = { ...HTTP_PROFILE, hugeTimeoutMs: timeoutMs };

  return {
    name: 'real-http',
    arb: httpStreamArb(profile).map((s) => ({ ...s, timeoutMs })),
    harnessFor(lane, policy) {
      const key = `${lane}:${policy}`;
      let harness = harnesses.get(key);
      if (!harness) {
        harness = createHarness({
          registration: registrationFor({ type: 'http', url: server.url }, { policy, timeoutMs }),
          advertisedEffects: ['deny'],
        });
        harnesses.set(key, harness);
      }
      return harness;
    },
    scriptExtras: (stream, bytes) => ({
      status: stream.http?.status ?? 200,
      headers: headersOf(stream, bytes.length),
      end: stream.http?.end ?? 'end',
      firstHop: stream.timing.firstDelayMs,
    }),
    // Every exchange is its own request: nothing of one reaches the next.
    afterCall: () => Promise.resolve(undefined),
    allowed: (call) =>
      httpAllowed(
        call.stream,
        call.bytes,
        call.chunks,
        call.requestId,
        MAX_BODY_BYTES,
        bands,
        judgedLate(call.result.audit[0], timeoutMs),
      ),
    taints: () => false,
    async close() {
      await Promise.all([...harnesses.values()].map((h) => h.close()));
      await server.stop();
      return [];
    },
  };
}
