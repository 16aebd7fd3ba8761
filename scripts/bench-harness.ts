// Measures a no-effect `tool.before` through the reference harness against raw echo floors over
// the same backend programs: persistent stdio (target <= 1.2x) and keep-alive HTTP (<= 1.3x).
// Usage: npx tsx scripts/bench-harness.ts [--stdio N] [--http N] [--warmup N] [--block N]
// Informational, not a test: it prints a table and exits 0 unless the setup itself fails.
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createHarness, type Harness, type InvokeInput } from '../reference-harness/index.js';
import { rawHttpClient, rawStdioClient, startServerProcess, type RawClient } from './lib/bench-raw.js';
import { micros, summarize, type LatencySummary } from './lib/bench-stats.js';
import { consoleIo, exitWith, isMainModule, type ScriptIo } from './lib/script-main.js';

const STDIO_ECHO = fileURLToPath(
  new URL('../reference-harness/test-backends/bench-echo.mjs', import.meta.url),
);
const HTTP_ECHO = fileURLToPath(
  new URL('../reference-harness/test-backends/bench-echo-http.mjs', import.meta.url),
);
/** A node child boots in ~150 ms here; a server that has not announced itself in 10 s is broken. */
const SERVER_READY_MS = 10_000;
/** Generous: a deadline must never fire during a benchmark on a noisy 2-core VM. */
const BENCH_TIMEOUT_MS = 5_000;
const TARGETS = { stdio: 1.2, http: 1.3 } as const;

interface BenchOptions {
  stdio: number;
  http: number;
  warmup: number;
  block: number;
}

function parseArgs(argv: readonly string[]): BenchOptions {
  const options: BenchOptions = { stdio: 10_000, http: 5_000, warmup: 1_000, block: 1_000 };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i]?.replace(/^--/, '') as keyof BenchOptions;
    const value = Number(argv[i + 1]);
    if (!(key in options) || !Number.isSafeInteger(value) || value <= 0) {
      throw new Error(
        `Unknown option or bad value near "${argv[i] ?? ''}"; use --stdio/--http/--warmup/--block N.`,
      );
    }
    options[key] = value;
  }
  return options;
}

function registrationFor(transport: object): object {
  return {
    protocolVersion: 'draft',
    hooks: [
      {
        id: 'com.example.bench',
        transport,
        subscriptions: [
          {
            events: ['tool.before'],
            mode: 'intercept',
            timeoutMs: BENCH_TIMEOUT_MS,
            failurePolicy: 'fail-closed',
            content: { default: 'omit' },
          },
        ],
      },
    ],
  };
}

const input = (n: number): InvokeInput => ({
  session: { id: 'sess_bench' },
  call: { id: `call_${n}` },
  tool: { name: 'Bash', input: { command: 'ls -la' } },
});

/** One timed harness call; a result other than a clean no-effect makes the figures meaningless. */
async function harnessTrip(harness: Harness, n: number): Promise<{ ms: number; frame: string }> {
  const t0 = performance.now();
  const result = await harness.invoke(input(n));
  const ms = performance.now() - t0;
  if (result.decision !== 'continue' || result.audit[0]?.outcome !== 'no-effect') {
    throw new Error(`harness call ${n} did not settle as no-effect: ${JSON.stringify(result.audit)}`);
  }
  return { ms, frame: result.transcript.find((e) => e.direction === 'out')?.text ?? '' };
}

/**
 * One timed raw trip: what any minimal client does (a fresh id, serialize, send, parse the
 * reply, check its id), sending the same request the harness sends.
 */
async function rawTrip(client: RawClient, template: Record<string, unknown>, n: number): Promise<number> {
  const t0 = performance.now();
  const id = `evt_raw_${n}`;
  template.id = id;
  (template.params as { event: { id: string } }).event.id = id;
  const reply = JSON.parse(await client.roundTrip(JSON.stringify(template))) as { id?: unknown };
  const ms = performance.now() - t0;
  if (reply.id !== id) throw new Error(`raw trip ${n} got id ${JSON.stringify(reply.id)}`);
  return ms;
}

interface Pair {
  raw: LatencySummary;
  harness: LatencySummary;
}

/** Warms both up untimed, then alternates blocks so drift of the machine hits both alike. */
async function compare(harness: Harness, client: RawClient, n: number, options: BenchOptions): Promise<Pair> {
  let frame = '';
  for (let i = 0; i < options.warmup; i++) frame = (await harnessTrip(harness, i)).frame;
  const template = JSON.parse(frame) as Record<string, unknown>;
  for (let i = 0; i < options.warmup; i++) await rawTrip(client, template, i);
  const raw: number[] = [];
  const through: number[] = [];
  let k = 0;
  for (let block = 0; raw.length < n; block++) {
    const size = Math.min(options.block, n - raw.length);
    const runRaw = async () => {
      for (let i = 0; i < size; i++) raw.push(await rawTrip(client, template, k++));
    };
    const runHarness = async () => {
      for (let i = 0; i < size; i++) through.push((await harnessTrip(harness, k++)).ms);
    };
    if (block % 2 === 0) {
      await runRaw();
      await runHarness();
    } else {
      await runHarness();
      await runRaw();
    }
  }
  return { raw: summarize(raw), harness: summarize(through) };
}

function table(rows: Array<{ name: string; pair: Pair; target: number }>): string[] {
  const pad = (s: string, w: number) => s.padEnd(w);
  const lines = [
    `${pad('transport', 10)}${pad('variant', 10)}${pad('n', 8)}${pad('median', 12)}${pad('p99', 12)}`,
  ];
  for (const { name, pair, target } of rows) {
    for (const [variant, s] of [
      ['raw', pair.raw],
      ['harness', pair.harness],
    ] as const) {
      lines.push(
        `${pad(name, 10)}${pad(variant, 10)}${pad(String(s.n), 8)}${pad(micros(s.median), 12)}${pad(micros(s.p99), 12)}`,
      );
    }
    const median = pair.harness.median / pair.raw.median;
    const p99 = pair.harness.p99 / pair.raw.p99;
    const verdict = median <= target ? 'meets' : 'MISSES';
    lines.push(
      `${pad(name, 10)}${pad('ratio', 10)}${pad('', 8)}${pad(`${median.toFixed(2)}x`, 12)}${pad(`${p99.toFixed(2)}x`, 12)}median ${verdict} the <= ${target}x target`,
    );
  }
  return lines;
}

/**
 * The targets are for a quiet machine: with more runnable processes than cores, every extra
 * microsecond of CPU a variant spends raises its odds of being descheduled mid-trip, so a loaded
 * run overstates the ratio. Say so next to the figures.
 */
function loadNote(atStart: number): string {
  const cores = availableParallelism();
  const load = `load average ${atStart.toFixed(2)} at start, ${(loadavg()[0] ?? 0).toFixed(2)} at end, ${cores} cores`;
  return Math.max(atStart, loadavg()[0] ?? 0) > cores
    ? `${load}: the machine was busy, so these ratios overstate the overhead; rerun on a quiet machine.`
    : load;
}

/** Runs the benchmark; resolves with the exit code. */
export async function runBench(io: ScriptIo): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseArgs(io.argv);
  } catch (error) {
    io.stderr((error as Error).message);
    return 2;
  }
  const loadAtStart = loadavg()[0] ?? 0;
  const server = await startServerProcess(HTTP_ECHO, SERVER_READY_MS);
  const stdioHarness = createHarness({
    registration: registrationFor({
      type: 'stdio',
      command: process.execPath,
      args: [STDIO_ECHO],
      lifecycle: 'persistent',
    }),
  });
  const httpHarness = createHarness({ registration: registrationFor({ type: 'http', url: server.url }) });
  const stdioRaw = rawStdioClient(STDIO_ECHO);
  const httpRaw = rawHttpClient(server.url);
  try {
    io.stderr(`stdio: ${options.warmup} warm-up + ${options.stdio} timed round trips each...`);
    const stdio = await compare(stdioHarness, stdioRaw, options.stdio, options);
    io.stderr(`http: ${options.warmup} warm-up + ${options.http} timed round trips each...`);
    const httpPair = await compare(httpHarness, httpRaw, options.http, options);
    for (const line of table([
      { name: 'stdio', pair: stdio, target: TARGETS.stdio },
      { name: 'http', pair: httpPair, target: TARGETS.http },
    ]))
      io.stdout(line);
    io.stdout(loadNote(loadAtStart));
    return 0;
  } finally {
    await Promise.allSettled([stdioHarness.close(), httpHarness.close(), stdioRaw.close(), httpRaw.close()]);
    await server.stop();
  }
}

if (isMainModule(import.meta.url)) {
  exitWith(runBench(consoleIo()));
}
