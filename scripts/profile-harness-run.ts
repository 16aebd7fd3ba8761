// Where the wall time of a full `harness` run goes: runs the harness suite against the bundled
// reference harness exactly as the CLI plans it, and prints per file its case count, the sum of its
// case durations, and when (seconds after the run started) its first and last case finished, so an
// idle worker or a long tail file shows up. Informational, not a test.
// Usage: npx tsx scripts/profile-harness-run.ts [--max-workers N (default: the CLI's)] [--top N]
//   [--json <file>: every case's file, name, duration and finish time] [--file <glob>: only these files]
import { writeFileSync } from 'node:fs';
import {
  HARNESS_MAX_WORKERS,
  harnessPlan,
  preflightDriver,
  referenceDriverCommand,
} from '../cli/commands/harness.js';
import { ensureBundles } from '../cli/bundles.js';
import { parseCommandLine } from '../cli/options/resolve.js';
import { runConformance } from '../cli/runner/run-conformance.js';
import type { CaseResult } from '../cli/runner/case-result.js';
import { profileOutcome } from './lib/profile-outcome.js';

interface FileFigures {
  cases: number;
  sumMs: number;
  firstDoneS: number;
  lastDoneS: number;
}

function flag(argv: readonly string[], name: string): number | undefined {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const value = Number(argv[i + 1]);
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`${name} needs a positive integer`);
  return value;
}

async function main(argv: readonly string[]): Promise<number> {
  const maxWorkers = flag(argv, '--max-workers') ?? HARNESS_MAX_WORKERS;
  const top = flag(argv, '--top') ?? 15;
  const fileGlob = argv.includes('--file') ? argv[argv.indexOf('--file') + 1] : undefined;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const io = { env: process.env, cwd: process.cwd() };
  const { options } = await parseCommandLine(['--reporter', 'json'], {}, { cwd: io.cwd });
  await ensureBundles();
  const command = referenceDriverCommand();
  const info = await preflightDriver(command, io, options);
  const plan = harnessPlan(command, info, io, options, 'profile-token');
  const tRun = performance.now();
  const files = new Map<string, FileFigures>();
  const done: { at: number; result: CaseResult }[] = [];
  const run = await runConformance({
    include: fileGlob === undefined ? plan.include : [fileGlob],
    provide: plan.provide,
    maxWorkers,
    onCase: (result) => {
      const at = (performance.now() - tRun) / 1000;
      done.push({ at, result });
      const f = files.get(result.file) ?? { cases: 0, sumMs: 0, firstDoneS: at, lastDoneS: at };
      f.cases++;
      f.sumMs += result.durationMs;
      f.lastDoneS = at;
      files.set(result.file, f);
    },
  });
  const tEnd = performance.now();
  const cpu = process.cpuUsage(cpu0);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`setup (options, bundles, driver preflight): ${((tRun - t0) / 1000).toFixed(1)} s`);
  out(
    `vitest run: ${((tEnd - tRun) / 1000).toFixed(1)} s; this process CPU ${(cpu.user / 1e6).toFixed(1)} s user, ${(cpu.system / 1e6).toFixed(1)} s sys`,
  );
  const outcome = profileOutcome(run.cases, run.runErrors);
  for (const line of outcome.lines) out(line);
  out('file                                                     cases  sum s  first  last');
  for (const [file, f] of [...files].sort((a, b) => b[1].sumMs - a[1].sumMs)) {
    out(
      `${file.padEnd(56)} ${String(f.cases).padStart(5)} ${(f.sumMs / 1000).toFixed(1).padStart(6)} ${f.firstDoneS.toFixed(1).padStart(6)} ${f.lastDoneS.toFixed(1).padStart(5)}`,
    );
  }
  out(`slowest ${top} cases:`);
  for (const { at, result } of [...done]
    .sort((a, b) => b.result.durationMs - a.result.durationMs)
    .slice(0, top)) {
    out(`  ${(result.durationMs / 1000).toFixed(2).padStart(6)} s (done at ${at.toFixed(1)}) ${result.name}`);
  }
  const json = argv.indexOf('--json');
  if (json >= 0 && argv[json + 1] !== undefined) {
    const rows = done.map(({ at, result }) => ({
      file: result.file,
      name: result.name,
      status: result.status,
      durationMs: result.durationMs,
      doneS: Number(at.toFixed(2)),
    }));
    writeFileSync(argv[json + 1] as string, `${JSON.stringify(rows, null, 1)}\n`);
  }
  return outcome.exitCode;
}

process.exitCode = await main(process.argv.slice(2));
