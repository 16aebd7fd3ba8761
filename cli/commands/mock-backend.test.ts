import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { controlClient } from '../../mock-backend/index.js';
import { rawRequest } from '../../mock-backend/shells/test-support/raw-http.js';
import {
  MOCK_PROCESS_MARGINS,
  SPAWN_TEST_TIMEOUT_MS,
} from '../../mock-backend/shells/test-support/stdio-process.js';
import { UsageError, type CliIo, type ProcessControl } from '../io.js';
import { run } from '../run.js';
import { parseMockBackendArgs } from './mock-backend.js';

const BIN = fileURLToPath(new URL('../../bin/ahp-conformance.mjs', import.meta.url));
const request = (id: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'hooks/intercept',
    params: { protocolVersion: 'draft', event: { id, type: 'tool.before', tool: { name: 'Bash' } } },
  });

function fakeIo(argv: string[], extra: Partial<CliIo> = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  const abort = new AbortController();
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  stdout.on('data', (c: Buffer) => ((out += c.toString()), listeners.forEach((l) => l())));
  stderr.on('data', (c: Buffer) => ((err += c.toString()), listeners.forEach((l) => l())));
  const io: CliIo = {
    argv: ['mock-backend', ...argv],
    env: {},
    cwd: process.cwd(),
    stdin,
    stdout,
    stderr,
    signal: abort.signal,
    ...extra,
  };
  return {
    io,
    abort: () => abort.abort(),
    out: () => out,
    err: () => err,
    /** Resolves once `predicate` holds on the captured output. */
    until: (predicate: () => boolean) =>
      new Promise<void>((resolve) => {
        const check = () => predicate() && (listeners.delete(check), resolve());
        listeners.add(check);
        check();
      }),
  };
}

function usageMessage(args: string[], env: Record<string, string> = {}): string {
  try {
    parseMockBackendArgs(args, env);
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  throw new Error('expected a UsageError');
}

describe('mock-backend flags', () => {
  it('resolves every option with its defaults', () => {
    expect(parseMockBackendArgs(['--http', '--scenario', 'deny'], {})).toEqual({
      transport: 'http',
      scenario: 'deny',
      port: 0,
      controlPort: 0,
    });
    expect(
      parseMockBackendArgs(['--http', '--scenario=deny', '--port=8080', '--control-port', '8081'], {}),
    ).toEqual({
      transport: 'http',
      scenario: 'deny',
      port: 8080,
      controlPort: 8081,
    });
    expect(parseMockBackendArgs(['--stdio', '--scenario', 'x.json', '--control-port', '0'], {})).toEqual({
      transport: 'stdio',
      source: { scenario: 'x.json', controlPort: 0 },
    });
    expect(parseMockBackendArgs(['--stdio'], { AHP_MOCK_CONTROL_URL: 'http://127.0.0.1:9/' })).toEqual({
      transport: 'stdio',
      source: { controlUrl: 'http://127.0.0.1:9/' },
    });
  });

  it('names the bad flag and the fix', () => {
    expect(usageMessage(['--scenario', 'deny'])).toMatch(/^choose a transport: add --stdio .* or --http/);
    expect(usageMessage(['--http', '--stdio', '--scenario', 'deny'])).toBe(
      '--stdio and --http exclude each other; pick one.',
    );
    expect(usageMessage(['--http', '--scenario', 'deny', '--verbose'])).toMatch(
      /^unknown option "--verbose"; use /,
    );
    expect(usageMessage(['--http', '--scenario'])).toBe('--scenario needs a value (see --help).');
    expect(usageMessage(['--http', '--scenario', 'deny', '--port', '70000'])).toMatch(
      /^--port must be a port number from 0 to 65535/,
    );
    expect(usageMessage(['--stdio', '--scenario', 'deny', '--port', '1'])).toMatch(
      /^--port applies to --http only/,
    );
    expect(usageMessage(['--http', '--scenario', 'deny', '--control-url', 'http://x/'])).toMatch(
      /^--control-url applies to --stdio only/,
    );
    expect(usageMessage(['--stdio', '--scenario', 'deny', '--control-url', 'http://x/'])).toMatch(
      /^--control-url excludes --scenario/,
    );
    expect(usageMessage(['--stdio', '--control-url', 'ftp://x/'])).toMatch(
      /^the control URL "ftp:\/\/x\/" is not an http:\/\/ URL/,
    );
    expect(usageMessage(['--stdio'])).toMatch(/^add --scenario <file\|built-in name>/);
  });
});

describe('mock-backend command, in-process', () => {
  it('exits 2 with one sentence for an invalid scenario file: the file, the JSON path, the expectation', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ahp-mock-cli-'));
    writeFileSync(
      join(dir, 'bad.json'),
      '{"rules":[{"behaviour":{"kind":"delay","ms":"soon","then":{"kind":"respond"}}}]}',
    );
    const f = fakeIo(['--http', '--scenario', 'bad.json'], { cwd: dir });
    const code = await run(f.io);
    rmSync(dir, { recursive: true, force: true });
    expect(code).toBe(2);
    expect(f.err()).toBe(
      'ahp-conformance mock-backend: Scenario file bad.json is invalid at $.rules[0].behaviour.ms: expected a number, found "soon".\n',
    );
  });

  it('exits 2 for an unknown built-in name and offers the closest one', async () => {
    const f = fakeIo(['--stdio', '--scenario', 'denny']);
    expect(await run(f.io)).toBe(2);
    expect(f.err()).toBe(
      'ahp-conformance mock-backend: Scenario "denny" is neither a file nor a built-in name; did you mean "deny"?\n',
    );
  });

  it('--http announces one JSON line, answers as scripted, serves control, and stops on the signal', async () => {
    const f = fakeIo(['--http', '--scenario', 'deny']);
    const exit = run(f.io);
    await f.until(() => f.out().includes('\n'));
    const announced = JSON.parse(f.out()) as { event: string; url: string; controlUrl: string };
    expect(announced).toMatchObject({
      event: 'listening',
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/),
    });
    const res = await rawRequest(announced.url, { body: request('e1') });
    expect(res.body.toString()).toBe(
      '{"jsonrpc":"2.0","id":"e1","result":{"protocolVersion":"draft","effects":[{"type":"deny","reason":"Blocked by the mock backend."}]}}',
    );
    const control = controlClient(announced.controlUrl);
    const doc = (await control.call('GET', '/recordings?type=inbound')) as {
      entries: Array<{ eventId: string }>;
    };
    control.close();
    expect(doc.entries.map((e) => e.eventId)).toEqual(['e1']);
    f.abort();
    expect(await exit).toBe(0);
  });

  it('--stdio answers on stdout and exits 0 at EOF through the process control it is given', async () => {
    const exits: number[] = [];
    const processControl: ProcessControl = {
      pid: 777,
      exit: (code) => void exits.push(code),
      killSelf: () => undefined,
      trapSigterm: () => undefined,
    };
    const f = fakeIo(['--stdio', '--scenario', 'stdio-banner', '--control-port', '0'], { processControl });
    const exit = run(f.io);
    await f.until(() => f.err().includes('control-listening'));
    const { controlUrl } = JSON.parse(f.err()) as { controlUrl: string };
    (f.io.stdin as PassThrough).end(`${request('e1')}\n`);
    expect(await exit).toBe(0);
    expect(exits).toEqual([0]);
    expect(f.out()).toBe(
      'mock-backend ready\n{"jsonrpc":"2.0","id":"e1","result":{"protocolVersion":"draft","effects":[]}}\n',
    );
    const control = controlClient(controlUrl);
    const listed = (await control.call('GET', '/processes')) as {
      processes: Array<{ pid: number; exit: unknown }>;
    };
    control.close();
    expect(listed.processes).toMatchObject([{ pid: 777, exit: { code: 0, signal: null } }]);
  });
});

describe('from the shell', { timeout: SPAWN_TEST_TIMEOUT_MS }, () => {
  it('`ahp-conformance mock-backend --http --scenario deny` answers a POST as scripted and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, 'mock-backend', '--http', '--scenario', 'deny'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const announced = await new Promise<{ url: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no listening line')), MOCK_PROCESS_MARGINS.spawnMs);
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) {
          clearTimeout(timer);
          resolve(JSON.parse(out) as { url: string });
        }
      });
    });
    const res = await rawRequest(announced.url, { body: request('e1') });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString()).result.effects).toEqual([
      { type: 'deny', reason: 'Blocked by the mock backend.' },
    ]);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
