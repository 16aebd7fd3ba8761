/**
 * `ahp-conformance mock-backend`: a real backend that misbehaves exactly as scripted, over stdio
 * (NDJSON on this process's stdin/stdout) or HTTP (a loopback server announced in one JSON line).
 */
import { readFile } from 'node:fs/promises';
import { constants } from 'node:os';
import { resolve } from 'node:path';
// Types only: the mock backend (and msw with it) is loaded when the command runs, so other
// commands and --help do not pay for it.
import type * as MockBackendModule from '../../mock-backend/index.js';
import type { KillSignal, StdioHost, StdioMockSource } from '../../mock-backend/index.js';
// The built-in names are plain data: --help lists them without loading the mock backend.
import { builtinNames } from '../../mock-backend/builtins.js';
import { EXIT, UsageError, writeLine, type CliIo } from '../io.js';
import type { Command } from './registry.js';

/** Environment variable naming the control server of a stdio mock (the mock backend's CONTROL_URL_ENV). */
const CONTROL_URL_ENV = 'AHP_MOCK_CONTROL_URL';

const loadMockBackend = (): Promise<typeof MockBackendModule> => import('../../mock-backend/index.js');

/** The resolved options of one run: flags are normalized here once. */
export type MockBackendOptions =
  | { transport: 'http'; scenario: string; port: number; controlPort: number }
  | { transport: 'stdio'; source: { scenario: string; controlPort?: number } | { controlUrl: string } };

const HELP = `Usage: ahp-conformance mock-backend (--stdio | --http [--port N]) --scenario <file|built-in name>
                                    [--control-port N] [--control-url URL]

A backend that misbehaves exactly as scripted, recording every delivery.
  --stdio               speak NDJSON on stdin/stdout (register this command as a stdio backend)
  --http                serve on loopback; prints {"event":"listening","url":...,"controlUrl":...}
  --port N              HTTP port (default 0: a free one)
  --scenario X          a scenario file, or a built-in name
  --control-port N      port of the control API (load scenario, recordings, PIDs, reset; default 0 for --http;
                        with --stdio it is hosted by this process and announced on stderr)
  --control-url URL     --stdio only: step frames on that control server, which owns the scenario
                        (also read from ${CONTROL_URL_ENV})

Built-in scenarios (one at least per behaviour; docs/mock-backend.md says what each does):
${wrap(builtinNames().join(', '), 98, '  ')}`;

/** `text` broken at spaces into lines of at most `width` characters, each after `indent`. */
function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(indent + line);
  return lines.join('\n');
}

const VALUE_FLAGS = ['--scenario', '--port', '--control-port', '--control-url'];

/** Parses the flags after the command name. Throws UsageError naming the flag and the fix. */
export function parseMockBackendArgs(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): MockBackendOptions {
  const values = new Map<string, string>();
  const modes = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    if (flag === '--stdio' || flag === '--http') {
      if (eq !== -1) throw new UsageError(`${flag} takes no value; write it alone.`);
      modes.add(flag);
      continue;
    }
    if (!VALUE_FLAGS.includes(flag)) {
      throw new UsageError(
        `unknown option "${arg}"; use --stdio or --http, --scenario <file|name>, --port <n>, --control-port <n> or --control-url <url> (see --help).`,
      );
    }
    const value = eq === -1 ? args[++i] : arg.slice(eq + 1);
    if (value === undefined || value === '' || (eq === -1 && value.startsWith('--'))) {
      throw new UsageError(`${flag} needs a value (see --help).`);
    }
    values.set(flag, value);
  }
  if (modes.size !== 1) {
    throw new UsageError(
      modes.size === 0
        ? 'choose a transport: add --stdio (NDJSON on stdin/stdout) or --http (a loopback server).'
        : '--stdio and --http exclude each other; pick one.',
    );
  }
  const scenario = values.get('--scenario');
  const controlUrl = values.get('--control-url');
  const controlPortText = values.get('--control-port');
  const controlPort = controlPortText === undefined ? undefined : port('--control-port', controlPortText);
  if (modes.has('--http')) {
    if (controlUrl !== undefined) {
      throw new UsageError(
        '--control-url applies to --stdio only; an --http mock serves its own control API (see --control-port).',
      );
    }
    const portText = values.get('--port');
    return {
      transport: 'http',
      scenario: requireScenario(scenario),
      port: portText === undefined ? 0 : port('--port', portText),
      controlPort: controlPort ?? 0,
    };
  }
  if (values.has('--port')) {
    throw new UsageError(
      '--port applies to --http only; a --stdio mock talks on stdin/stdout (drop --port).',
    );
  }
  if (controlUrl !== undefined && (scenario !== undefined || controlPort !== undefined)) {
    throw new UsageError(
      `--control-url excludes ${scenario !== undefined ? '--scenario' : '--control-port'}: that control server owns the scenario (load it there), or drop --control-url.`,
    );
  }
  if (scenario !== undefined) {
    return {
      transport: 'stdio',
      source: controlPort === undefined ? { scenario } : { scenario, controlPort },
    };
  }
  const url = controlUrl ?? (controlPort === undefined ? env[CONTROL_URL_ENV] : undefined);
  if (url === undefined || url === '') requireScenario(undefined);
  return { transport: 'stdio', source: { controlUrl: checkUrl(url as string) } };
}

function requireScenario(value: string | undefined): string {
  if (value === undefined) {
    throw new UsageError('add --scenario <file|built-in name> (run with --help to list the built-in names).');
  }
  return value;
}

function port(flag: string, value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw new UsageError(
      `${flag} must be a port number from 0 to 65535 (0 picks a free one), not "${value}".`,
    );
  }
  return Number(value);
}

function checkUrl(url: string): string {
  if (!URL.canParse(url) || new URL(url).protocol !== 'http:') {
    throw new UsageError(
      `the control URL "${url}" is not an http:// URL; pass the controlUrl a mock announced, e.g. http://127.0.0.1:4567/.`,
    );
  }
  return url;
}

async function runHttp(
  options: Extract<MockBackendOptions, { transport: 'http' }>,
  io: CliIo,
): Promise<number> {
  const { isPipe, loadScenario, startHttpMock, watchParent } = await loadMockBackend();
  const loaded = await loadScenario(options.scenario, (p) => readText(io, p));
  if (!loaded.ok) throw new UsageError(loaded.error.message);
  let mock;
  try {
    mock = await startHttpMock({
      scenario: loaded.scenario,
      port: options.port,
      control: { port: options.controlPort },
      log: (text) => writeLine(io.stderr, text),
    });
  } catch (e) {
    throw new UsageError(
      `cannot listen (${(e as Error).message}); choose another --port / --control-port, or 0 for a free one.`,
    );
  }
  writeLine(io.stdout, JSON.stringify({ event: 'listening', url: mock.url, controlUrl: mock.controlUrl }));
  let stopWatch = (): void => undefined;
  await new Promise<void>((done) => {
    if (io.signal.aborted) return done();
    io.signal.addEventListener('abort', () => done(), { once: true });
    // Serve until the starter is gone too: its pipe to our stdin closed, or it exited.
    if (io.stdin === process.stdin && isPipe(0)) {
      io.stdin.on('end', () => done()).on('error', () => done());
      io.stdin.resume();
    }
    if (!io.processControl) stopWatch = watchParent(process, done, io.parentPid);
    else io.processControl.stayAlive?.(done);
  });
  stopWatch();
  await mock.close();
  return EXIT.ok;
}

async function runStdio(
  options: Extract<MockBackendOptions, { transport: 'stdio' }>,
  io: CliIo,
): Promise<number> {
  const { processStdioHost, startStdioMock } = await loadMockBackend();
  let ended!: (code: number) => void;
  const exitCode = new Promise<number>((r) => (ended = r));
  const control = io.processControl ?? realProcessControl(processStdioHost(process, io.parentPid));
  const host: StdioHost = {
    stdin: io.stdin,
    stdout: io.stdout,
    stderr: io.stderr,
    pid: control.pid,
    exit(code) {
      ended(code);
      control.exit(code);
    },
    killSelf(signal: KillSignal) {
      ended(128 + (constants.signals[signal] ?? 0));
      control.killSelf(signal);
    },
    trapSigterm: (handler) => control.trapSigterm(handler),
    ...(control.stayAlive ? { stayAlive: control.stayAlive } : {}),
  };
  // Ctrl-C ends the mock as the signal would have; SIGTERM is the scenario's (see trapSigterm).
  const onAbort = (): void => host.killSelf('SIGINT');
  io.signal.addEventListener('abort', onAbort, { once: true });
  const source: StdioMockSource =
    'controlUrl' in options.source
      ? { kind: 'control', url: options.source.controlUrl }
      : { kind: 'scenario', ref: options.source.scenario, cwd: io.cwd, ...portOf(options.source) };
  const started = await startStdioMock(host, source);
  if (!started.ok) {
    io.signal.removeEventListener('abort', onAbort);
    throw new UsageError(started.message);
  }
  // stdout carries the protocol, so the hosted control server is announced on stderr.
  if (started.controlUrl)
    writeLine(io.stderr, JSON.stringify({ event: 'control-listening', controlUrl: started.controlUrl }));
  return exitCode;
}

function portOf(source: { controlPort?: number }): { controlPort?: number } {
  return source.controlPort === undefined ? {} : { controlPort: source.controlPort };
}

function realProcessControl(host: StdioHost): NonNullable<CliIo['processControl']> {
  return {
    pid: host.pid,
    exit: host.exit,
    killSelf: (s) => host.killSelf(s as KillSignal),
    trapSigterm: host.trapSigterm,
    ...(host.stayAlive ? { stayAlive: host.stayAlive } : {}),
  };
}

function readText(io: CliIo, path: string): Promise<string> {
  return readFile(resolve(io.cwd, path), 'utf8');
}

/** The `mock-backend` command. */
export const mockBackendCommand: Command = {
  name: 'mock-backend',
  help: HELP,
  flags: ['--stdio', '--http', ...VALUE_FLAGS],
  async run(args, io) {
    const options = parseMockBackendArgs(args, io.env);
    return options.transport === 'http' ? runHttp(options, io) : runStdio(options, io);
  },
};
