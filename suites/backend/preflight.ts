/**
 * The pre-flight before a backend run: one valid tool.before, bounded in time. It answers one
 * question, whether the backend can be exercised at all; whether its answer conforms is the
 * suite's business. A backend that wrote anything back can be exercised.
 */
import type { Clock } from '../../protocol/clock.js';
import { FrameFactory } from './frames.js';
import { openTransport, type TransportFailure } from './session.js';
import type { BackendEndpoint, BackendTarget } from './target.js';

/** Whether the backend can be exercised, or the one sentence saying why not. */
export type PreflightResult = { ok: true; elapsedMs: number } | { ok: false; message: string };

/** The pre-flight's clock, its bound, and the grace for reaping what it started. */
export interface PreflightOptions {
  clock: Clock;
  /** Give up after this long: the backend never answered. */
  boundMs: number;
  killGraceMs: number;
}

const PROCESS_ENDS = new Set([
  'stdio.exit-before-reply',
  'stdio.stdout-closed',
  'stdio.no-reply',
  'stdio.exit-nonzero',
  'stdio.signal',
  'stdio.write-failed',
]);

function what(endpoint: BackendEndpoint): string {
  return endpoint.kind === 'http' ? endpoint.url : `the backend command ${JSON.stringify(endpoint.command)}`;
}

/** The one sentence for a failure that means the backend cannot be exercised; undefined when it can. */
export function unreachableMessage(
  endpoint: BackendEndpoint,
  failure: TransportFailure,
  wroteBytes: boolean,
  boundMs: number,
): string | undefined {
  if (wroteBytes) return undefined;
  const target = what(endpoint);
  const { code, detail } = failure;
  if (code === 'stdio.launch-failed') return `${detail}; check the command after -- and your PATH.`;
  if (PROCESS_ENDS.has(code)) {
    return `${target} ended before answering a tool.before request (${detail}); run it by hand to see why.`;
  }
  if (code === 'deadline') {
    return endpoint.kind === 'http'
      ? `${target} did not answer a tool.before POST within ${boundMs} ms; check that the backend is running and that --url is its AHP endpoint.`
      : `${target} did not answer a tool.before request within ${boundMs} ms; check that it reads one JSON-RPC message per line on stdin and answers on stdout.`;
  }
  if (code.startsWith('http.connection')) {
    return `could not connect to ${target} (${detail}); start the backend or fix --url.`;
  }
  if (code.startsWith('auth.')) {
    const env = endpoint.kind === 'http' ? endpoint.bearerTokenEnv : undefined;
    return env === undefined
      ? `${target} requires credentials (${detail}); put the token in an environment variable and pass --bearer-token-env NAME.`
      : `${target} refused the credentials (${detail}); check the bearer token in ${env}.`;
  }
  if (code === 'http.status' && /HTTP (404|405)\b/.test(detail)) {
    return `${target} answered a tool.before POST with ${detail}; check that --url is the backend's AHP endpoint.`;
  }
  return undefined;
}

/** Sends one valid tool.before and says whether the backend can be exercised; never hangs past the bound. */
export async function preflightBackend(
  target: BackendTarget,
  options: PreflightOptions,
): Promise<PreflightResult> {
  const { clock } = options;
  const transport = openTransport(target.endpoint, clock, options.killGraceMs);
  const frame = new FrameFactory(target.denyInput, () => clock.wallNow()).build({
    send: 'intercept',
    input: 'allow',
  });
  const deadline = new AbortController();
  const stop = new AbortController();
  clock.sleep(options.boundMs, stop.signal).then(
    () => deadline.abort(new Error('pre-flight bound')),
    () => undefined,
  );
  let wrote = false;
  const started = clock.now();
  try {
    const reply = await transport.request(frame.text, {
      signal: deadline.signal,
      onFrame: (dir) => {
        if (dir === 'in') wrote = true;
      },
    });
    if (reply.ok) return { ok: true, elapsedMs: Math.round(clock.now() - started) };
    const message = unreachableMessage(
      target.endpoint,
      reply.failure,
      wrote || reply.raw !== undefined,
      options.boundMs,
    );
    return message === undefined
      ? { ok: true, elapsedMs: Math.round(clock.now() - started) }
      : { ok: false, message };
  } finally {
    stop.abort();
    await transport.close();
  }
}
