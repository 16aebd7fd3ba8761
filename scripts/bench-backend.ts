// Times `ahp-conformance backend` self-certifying the correct example over persistent stdio, the
// whole CLI as a vendor runs it (pre-flight, vitest start, every case, reports), against its
// target of 5 s wall on a quiet machine.
// Usage: npx tsx scripts/bench-backend.ts [--runs N] [--example NAME]
// Informational, not a test: it prints each run and the median, and exits 0 unless a run fails.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { consoleIo, exitWith, isMainModule, type ScriptIo } from './lib/script-main.js';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../bin/ahp-conformance.mjs', import.meta.url));
const TARGET_MS = 5_000;
const DENY_INPUT = '{"command":"rm -rf /tmp/build"}';

function parseArgs(argv: readonly string[]): { runs: number; example: string } {
  const options = { runs: 3, example: 'correct-backend' };
  for (let i = 0; i < argv.length; i += 2) {
    const [key, value] = [argv[i], argv[i + 1]];
    if (key === '--runs' && Number.isSafeInteger(Number(value)) && Number(value) > 0)
      options.runs = Number(value);
    else if (key === '--example' && value !== undefined) options.example = value;
    else throw new Error(`Unknown option or bad value near "${key ?? ''}"; use --runs N or --example NAME.`);
  }
  return options;
}

/** Runs the benchmark; returns the exit code. */
export async function main(io: ScriptIo): Promise<number> {
  const { runs, example } = parseArgs(io.argv);
  const backend = fileURLToPath(new URL(`../fixtures/backends/${example}.mjs`, import.meta.url));
  const walls: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const dir = await mkdtemp(join(tmpdir(), 'ahp-bench-backend-'));
    const started = performance.now();
    try {
      await run(process.execPath, [
        BIN,
        'backend',
        '--reporter',
        'json',
        '--output-dir',
        dir,
        '--deny-input',
        DENY_INPUT,
        '--stdio',
        '--',
        process.execPath,
        backend,
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const wall = performance.now() - started;
    walls.push(wall);
    io.stdout(`run ${i + 1}: ${(wall / 1000).toFixed(2)} s (load ${loadavg()[0]?.toFixed(1)})`);
  }
  const sorted = [...walls].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const busy = (loadavg()[0] ?? 0) > availableParallelism();
  io.stdout(
    `median ${(median / 1000).toFixed(2)} s over ${runs} run(s); target <= ${TARGET_MS / 1000} s: ${median <= TARGET_MS ? 'met' : 'MISSED'}${busy ? ' (the machine is busy: load above its cores)' : ''}`,
  );
  return 0;
}

if (isMainModule(import.meta.url)) exitWith(main(consoleIo()));
