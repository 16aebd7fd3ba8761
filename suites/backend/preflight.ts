/**
 * The pre-flight before a backend run: one valid tool.before, bounded in time. It answers one
 * question, whether the backend can be exercised at all; whether its answer conforms is the
 * suite's business. A backend that wrote anything back can be exercised, and so can one that
 * started, read the request and died on it: that is a finding, judged with a full report. Only a
 * command that does not start (or exits without being sent anything), an endpoint that cannot be
 * reached and a backend that answers nothing at all stop the run.
 */
import { spawn } from 'node:child_process';
import type { Clock } from '../../protocol/clock.js';
import { FrameFactory } from './frames.js';
import { openTransport, type TransportFailure } from './frame-run.js';
import { toolInputsOf, type BackendEndpoint, type BackendTarget } from './target.js';

/** Whether the backend can be exercised, or the one sentence saying why not. */
export type PreflightResult = { ok: true; elapsedMs: number } | { ok: false; message: string };

/** The pre-flight's clock, its bound, and the grace for reaping what it started. */
export interface PreflightOptions {
  clock: Clock;
  /** Give up after this long: the backend never answered. */
  boundMs: number;
  /** Where the bound comes from, for the message (e.g. "twice --deadline-ms 5000"). */
  boundSource?: string;
  killGraceMs: number;
  /**
   * How long a process that ended on the request is watched, restarted with nothing sent, for
   * ending by itself; undefined skips the check (every such process is then judged).
   */
  startupWatchMs?: number;
}

const PROCESS_ENDS = new Set([
  'stdio.exit-before-reply',
  'stdio.stdout-closed',
  'stdio.no-reply',
  'stdio.exit-nonzero',
  'stdio.signal',
  'stdio.write-failed',
]);

/** A command line as a person would type it: arguments with spaces or quotes are JSON-quoted. */
export function commandLine(endpoint: Extract<BackendEndpoint, { kind: 'stdio' }>): string {
  return [endpoint.command, ...endpoint.args]
    .map((a) => (a === '' || /[\s"'\\$`]/.test(a) ? JSON.stringify(a) : a))
    .join(' ');
}

function what(endpoint: BackendEndpoint): string {
  return endpoint.kind === 'http' ? endpoint.url : `the backend command \`${commandLine(endpoint)}\``;
}

/**
 * A persistent backend is sent a request and stdin stays open; one that reads all of its stdin
 * before it answers waits forever there, and is a per_event backend (one request per process).
 */
const PER_EVENT_HINT =
  ' (a backend that answers only once its stdin ends serves one request per process: add --lifecycle per_event)';

/** The one sentence for a failure that means the backend cannot be exercised; undefined when it can. */
export function unreachableMessage(
  endpoint: BackendEndpoint,
  failure: TransportFailure,
  wroteBytes: boolean,
  boundMs: number,
  boundSource?: string,
): string | undefined {
  if (wroteBytes) return undefined;
  const target = what(endpoint);
  const { code, detail } = failure;
  if (code === 'stdio.launch-failed') return `${detail}; check the command after -- and your PATH.`;
  if (code === 'deadline') {
    const bound = `${boundMs} ms${boundSource === undefined ? '' : ` (the pre-flight bound: ${boundSource})`}`;
    return endpoint.kind === 'http'
      ? `${target} did not answer a tool.before POST within ${bound}; check that the backend is running and that --url is its AHP endpoint.`
      : `${target} did not answer a tool.before request within ${bound}; check that it reads one JSON-RPC message per line on stdin and answers on stdout${endpoint.lifecycle === 'persistent' ? PER_EVENT_HINT : ''}, and give a slower start more time with --timeout-scale.`;
  }
  if (code === 'http.connection-refused' || code === 'http.connection-failed') {
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

/** Longest stderr tail quoted when a command exits by itself. */
const STDERR_TAIL_CHARS = 600;

/**
 * Starts the command with stdin held open and nothing sent, and says how it ended if it ends
 * within `ms` (it cannot start: a missing script, a bad flag); undefined when it keeps running,
 * which means the earlier request is what ended it.
 */
export async function endsUnprompted(
  endpoint: Extract<BackendEndpoint, { kind: 'stdio' }>,
  ms: number,
): Promise<string | undefined> {
  const child = spawn(endpoint.command, endpoint.args, {
    cwd: endpoint.cwd,
    env: endpoint.env,
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
  });
  child.stdin.on('error', () => undefined);
  const ended = await new Promise<string | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve(error.message);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(signal === null ? `exited with code ${code ?? 0}` : `was killed by ${signal}`);
    });
  });
  if (ended === undefined) {
    child.kill('SIGKILL');
    await new Promise((resolve) =>
      child.exitCode !== null ? resolve(undefined) : child.once('close', resolve),
    );
    return undefined;
  }
  const tail = stderr.trim();
  return `${ended} without being sent anything${tail === '' ? '' : ` (stderr: ${JSON.stringify(tail)})`}`;
}

/** Sends one valid tool.before and says whether the backend can be exercised; never hangs past the bound. */
export async function preflightBackend(
  target: BackendTarget,
  options: PreflightOptions,
): Promise<PreflightResult> {
  const { clock } = options;
  const transport = openTransport(target.endpoint, clock, options.killGraceMs);
  const frame = new FrameFactory(toolInputsOf(target), () => clock.wallNow()).build({
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
  const ok = (): PreflightResult => ({ ok: true, elapsedMs: Math.round(clock.now() - started) });
  let failure: TransportFailure | undefined;
  try {
    const reply = await transport.request(frame.text, {
      signal: deadline.signal,
      onFrame: (dir) => {
        if (dir === 'in') wrote = true;
      },
      onNoise: () => {
        wrote = true;
      },
    });
    if (reply.ok) return ok();
    if (wrote || reply.raw !== undefined) return ok();
    failure = reply.failure;
  } finally {
    stop.abort();
    await transport.close();
  }
  const endpoint = target.endpoint;
  if (endpoint.kind === 'stdio' && PROCESS_ENDS.has(failure.code)) {
    // It started and ended without a word: on its own (it cannot start), or on the request (judged).
    if (options.startupWatchMs === undefined) return ok();
    const byItself = await endsUnprompted(endpoint, options.startupWatchMs);
    return byItself === undefined
      ? ok()
      : {
          ok: false,
          message: `${what(endpoint)} ${byItself}, so it cannot be exercised; run it by hand to see why.`,
        };
  }
  const message = unreachableMessage(endpoint, failure, false, options.boundMs, options.boundSource);
  return message === undefined ? ok() : { ok: false, message };
}
