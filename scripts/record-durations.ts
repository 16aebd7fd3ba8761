// Records the case durations `--shard` balances the harness suite by, from the JSON report of a
// full, unsharded run of the bundled reference harness:
//   npx ahp-conformance harness --seed 1 --reporter json --output-dir /tmp/durations
//   npx tsx scripts/record-durations.ts /tmp/durations/report.json
// and writes cli/shard/harness-durations.json. Rerun it when cases are added or their times
// change much; the split stays deterministic either way, since every shard reads the same file.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DurationsFile } from '../cli/shard/durations.js';
import { consoleIo, exitWith, isMainModule, type ScriptIo } from './lib/script-main.js';

const OUT = fileURLToPath(new URL('../cli/shard/harness-durations.json', import.meta.url));

interface ReportShape {
  tool?: { version?: string };
  role?: string;
  shard?: unknown;
  requirements?: { cases?: { name: string; status: string; durationMs: number }[] }[];
}

/** The durations file for a report: every case that ran, by name, in name order. */
export function durationsOf(report: ReportShape): DurationsFile {
  const cases: Record<string, number> = {};
  for (const requirement of report.requirements ?? []) {
    for (const c of requirement.cases ?? []) {
      if (c.status !== 'skipped') cases[c.name] = c.durationMs;
    }
  }
  const sorted = Object.fromEntries(Object.entries(cases).sort(([a], [b]) => (a < b ? -1 : 1)));
  return {
    about:
      'Case durations (ms) of a full run of the bundled reference harness; --shard balances the harness suite by them. Regenerate with scripts/record-durations.ts.',
    version: report.tool?.version ?? 'unknown',
    cases: sorted,
  };
}

export function recordDurations(io: ScriptIo): number {
  const [path] = io.argv;
  if (path === undefined) {
    io.stderr('usage: npx tsx scripts/record-durations.ts <report.json of a full harness run>');
    return 2;
  }
  const report = JSON.parse(readFileSync(path, 'utf8')) as ReportShape;
  if (report.role !== 'harness' || report.shard !== undefined) {
    io.stderr(`${path} is not the report of a full, unsharded harness run; record from one.`);
    return 2;
  }
  const file = durationsOf(report);
  writeFileSync(OUT, `${JSON.stringify(file, null, 2)}\n`);
  io.stdout(`${Object.keys(file.cases).length} case durations written to ${OUT}`);
  return 0;
}

if (isMainModule(import.meta.url)) exitWith(Promise.resolve(recordDurations(consoleIo())));
