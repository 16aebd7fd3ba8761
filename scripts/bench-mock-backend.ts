/**
 * Benchmark of the mock backend (not a test): run with `npx tsx scripts/bench-mock-backend.ts`.
 *
 * 1. Error of scheduled delays: a scenario answers after `delay` ms; the client measures send to
 *    reply and subtracts the delay (p50/p99; target p99 <= 3 ms) over stdio and HTTP.
 * 2. Round-trip overhead: an immediate reply from the mock against a raw NDJSON echo child and a
 *    raw node:http echo server, every server in its own process (target <= 1.2x).
 * 3. Spawn cost of a per_event stdio mock (spawn, one line, EOF, exit) for the bundled entry and
 *    the tsx entry, against `node -e 0`.
 * Options: --n <round trips> (default 3000), --delays <n> (default 200), --delay-ms <ms> (default 20),
 * --spawns <n> (default 10).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { controlClient, startMockControl, STDIO_MAIN_PATH, type Scenario } from '../mock-backend/index.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const N = option('--n', 3000);
const DELAYS = option('--delays', 200);
const DELAY_MS = option('--delay-ms', 20);
const SPAWNS = option('--spawns', 10);
const WARM_UP = Math.min(1000, N);
const BIN = fileURLToPath(new URL('../bin/ahp-conformance.mjs', import.meta.url));
const TSX = ['--import', 'tsx'];

const requestLine = (i: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: `evt_${i}`,
    method: 'hooks/intercept',
    params: {
      protocolVersion: 'draft',
      event: { id: `evt_${i}`, type: 'tool.before', tool: { name: 'Bash', input: { command: 'ls -la' } } },
      capabilities: { effects: ['deny'] },
    },
  });
const REPLY = '{"jsonrpc":"2.0","id":"evt_0","result":{"protocolVersion":"draft","effects":[]}}';

/** A line-oriented peer over a child's stdin/stdout: one request line, one reply line. */
function stdioPeer(child: ChildProcess): (line: string) => Promise<void> {
  let pending: (() => void) | undefined;
  let buffered = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let nl = buffered.indexOf('\n');
    while (nl !== -1) {
      buffered = buffered.slice(nl + 1);
      const done = pending;
      pending = undefined;
      done?.();
      nl = buffered.indexOf('\n');
    }
  });
  return (line) =>
    new Promise<void>((resolve) => {
      pending = resolve;
      child.stdin?.write(`${line}\n`);
    });
}

/** POSTs over one keep-alive connection. */
function httpPeer(url: string): (body: string) => Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return (body) =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        url,
        { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
        (res) => {
          res.on('data', () => undefined);
          res.on('end', () => resolve());
        },
      );
      req.on('error', reject);
      req.end(body);
    });
}

async function timeRoundTrips(
  send: (line: string) => Promise<void>,
  n: number,
  warmUp = WARM_UP,
): Promise<number[]> {
  for (let i = 0; i < warmUp; i++) await send(requestLine(i));
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await send(requestLine(i));
    times.push(performance.now() - t0);
  }
  return times;
}

function stats(values: number[]): { p50: number; p99: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99) };
}

const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);

function waitForLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    child.stdout?.on('data', function onData(c: Buffer) {
      text += c.toString();
      if (text.includes('\n')) {
        child.stdout?.off('data', onData);
        resolve(text.slice(0, text.indexOf('\n')));
      }
    });
  });
}

const ECHO_STDIO = `require('readline').createInterface({input:process.stdin}).on('line',()=>process.stdout.write(${JSON.stringify(REPLY + '\n')}))`;
const ECHO_HTTP = `require('http').createServer((q,s)=>{q.resume();q.on('end',()=>{s.writeHead(200,{'content-type':'application/json','content-length':${REPLY.length}});s.end(${JSON.stringify(REPLY)})})}).listen(0,'127.0.0.1',function(){console.log('http://127.0.0.1:'+this.address().port+'/')})`;

async function main(): Promise<void> {
  const children: ChildProcess[] = [];
  const start = (command: string, argv: string[]) => {
    const c = spawn(command, argv, { stdio: ['pipe', 'pipe', 'inherit'] });
    children.push(c);
    return c;
  };
  const dir = mkdtempSync(join(tmpdir(), 'ahp-bench-'));
  const scenarioFile = (s: Scenario) => {
    const file = join(dir, `s${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(s));
    return file;
  };
  const immediate: Scenario = { rules: [] };
  const delayed: Scenario = {
    rules: [{ behaviour: { kind: 'delay', ms: DELAY_MS, then: { kind: 'respond' } } }],
  };
  const rows: string[] = [];
  const row = (name: string, s: { p50: number; p99: number }, extra = '') =>
    rows.push(`${name.padEnd(44)} p50 ${fmt(s.p50).padStart(9)}   p99 ${fmt(s.p99).padStart(9)}   ${extra}`);

  try {
    // Round trips: raw echoes first, then the mock in each mode.
    const echo = stdioPeer(start(process.execPath, ['-e', ECHO_STDIO]));
    const echoStats = stats(await timeRoundTrips(echo, N));
    row('raw NDJSON echo child', echoStats);

    const localMock = stdioPeer(
      start(process.execPath, [...TSX, STDIO_MAIN_PATH, '--scenario', scenarioFile(immediate)]),
    );
    const localStats = stats(await timeRoundTrips(localMock, N));
    row(
      'stdio mock, own scenario (--scenario)',
      localStats,
      `${(localStats.p50 / echoStats.p50).toFixed(2)}x echo`,
    );

    const control = await startMockControl({ scenario: immediate });
    const remoteMock = stdioPeer(start(...commandOf(control.stdioCommand())));
    const remoteStats = stats(await timeRoundTrips(remoteMock, N));
    row(
      'stdio mock, control server steps (--control-url)',
      remoteStats,
      `${(remoteStats.p50 / echoStats.p50).toFixed(2)}x echo`,
    );

    const echoHttpChild = start(process.execPath, ['-e', ECHO_HTTP]);
    const echoHttp = httpPeer(await waitForLine(echoHttpChild));
    const echoHttpStats = stats(await timeRoundTrips(echoHttp, N));
    row('raw node:http echo server', echoHttpStats);

    const httpChild = start(process.execPath, [
      BIN,
      'mock-backend',
      '--http',
      '--scenario',
      scenarioFile(immediate),
    ]);
    const announced = JSON.parse(await waitForLine(httpChild)) as { url: string; controlUrl: string };
    const httpMock = httpPeer(announced.url);
    const httpStats = stats(await timeRoundTrips(httpMock, N));
    row('HTTP mock (CLI process)', httpStats, `${(httpStats.p50 / echoHttpStats.p50).toFixed(2)}x echo`);

    // Delay errors: the same processes, now scripted to answer after DELAY_MS.
    const delayError = async (send: (line: string) => Promise<void>) =>
      stats((await timeRoundTrips(send, DELAYS, 5)).map((t) => t - DELAY_MS));
    const localDelayed = stdioPeer(
      start(process.execPath, [...TSX, STDIO_MAIN_PATH, '--scenario', scenarioFile(delayed)]),
    );
    row(`delay ${DELAY_MS} ms error, stdio (--scenario)`, await delayError(localDelayed));
    control.setScenario(delayed);
    row(`delay ${DELAY_MS} ms error, stdio (--control-url)`, await delayError(remoteMock));
    const httpControl = controlClient(announced.controlUrl);
    await httpControl.call('PUT', '/scenario', delayed);
    httpControl.close();
    row(`delay ${DELAY_MS} ms error, HTTP`, await delayError(httpMock));

    // per_event spawn cost: each process gets one line, then EOF, and must exit 0.
    const perEvent = async (argv: string[]) => {
      const times: number[] = [];
      for (let i = 0; i < SPAWNS; i++) {
        const t0 = performance.now();
        const child = spawn(process.execPath, argv, { stdio: ['pipe', 'ignore', 'inherit'] });
        child.stdin.end(`${requestLine(i)}\n`);
        await new Promise((r) => child.on('exit', r));
        times.push(performance.now() - t0);
      }
      return stats(times);
    };
    control.setScenario(immediate);
    const baseline = await perEvent(['-e', 'process.stdin.resume()']);
    row('per_event spawn: node -e (baseline)', baseline);
    const bundledEntry = await perEvent(control.stdioCommand().args);
    row(
      'per_event spawn: bundled entry (--control-url)',
      bundledEntry,
      `${(bundledEntry.p50 / baseline.p50).toFixed(2)}x node`,
    );
    const tsxControl = await startMockControl({ scenario: immediate, stdioEntry: 'tsx' });
    const tsxEntry = await perEvent(tsxControl.stdioCommand().args);
    row(
      'per_event spawn: tsx entry (--control-url)',
      tsxEntry,
      `${(tsxEntry.p50 / baseline.p50).toFixed(2)}x node`,
    );
    await tsxControl.close();
    await control.close();
  } finally {
    for (const c of children) c.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `mock-backend benchmark: ${N} round trips (after ${WARM_UP} warm-up), ${DELAYS} delayed replies; node ${process.version}`,
  );
  for (const r of rows) console.log(r);
}

function commandOf(c: { command: string; args: string[] }): [string, string[]] {
  return [c.command, c.args];
}

await main();
