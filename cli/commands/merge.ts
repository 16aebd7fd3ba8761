/**
 * `ahp-conformance merge <report.json>...`: joins the partial reports of a sharded run
 * (`--shard <i>/<n>` on `harness` or `backend`) into the report, in every format, and the exit
 * code an unsharded run would have given (problems regrouped from the shards' cases, known-failures
 * lines judged over the whole run). Reports of different runs, a missing or repeated
 * shard, and a case in two shards are refused with exit 2 and one sentence.
 */
import { resolve } from 'node:path';
import { renderConsoleSummary } from '../console/summary.js';
import { EXIT, UsageError, writeLine, type CliIo } from '../io.js';
import { parseArgv } from '../options/argv.js';
import { prepareOutputDir } from '../options/output-dir.js';
import { EXPECTED, OPTION_DEFAULTS, REPORTER_NAMES, type ReporterName } from '../options/schema.js';
import { BUILTIN_RENDERERS, writeReports } from '../pipeline/write-reports.js';
import { renderJsonReport } from '../report/json-writer.js';
import { renderMarkdown } from '../report/markdown.js';
import { checkShards } from '../report/merge-check.js';
import { readPartialReport } from '../report/merge-input.js';
import { mergeReports } from '../report/merge-reports.js';
import type { Command } from './registry.js';

const HELP = `Usage: ahp-conformance merge <report.json>... [--reporter <name>]... [--output-dir <dir>]

Joins the partial reports of a sharded run (each shard, a harness or backend run given its
shard option "i/n", writes one report.json) into one report, in every format, and exits as the unsharded run would have:
0 no MUST failed, 1 conformance failures (or a known-failures line none of whose cases fails
in any shard). Problems are regrouped over the shards' cases, blocked cases carried through. Every shard from 1 to n must be given once, all from one run: the same version,
target, seed, case selection and options.

Examples:
  ahp-conformance merge shard-1/report.json shard-2/report.json shard-3/report.json
  ahp-conformance merge shards/*/report.json --reporter console --reporter junit --output-dir reports

Options:
  --reporter <name>   console, json, junit, html, markdown (repeatable; default: all of them)
  --output-dir <dir>  where report files go (default ./reports)

Exit codes: 0 no MUST failed, 1 conformance failures, 2 a file is not a partial report or the
reports are not the shards of one run (one sentence names the file and the fix).`;

const FLAGS = {
  '--reporter': { key: 'reporters', kind: 'list', placeholder: 'console|json|junit|html|markdown' },
  '--output-dir': { key: 'outputDir', kind: 'value', placeholder: '<dir>' },
} as const;

function reportersOf(value: string | true | string[] | undefined): ReporterName[] {
  if (value === undefined) return [...REPORTER_NAMES];
  const list = Array.isArray(value) ? value : [String(value)];
  const bad = list.find((r) => !(REPORTER_NAMES as readonly string[]).includes(r));
  if (bad !== undefined) {
    throw new UsageError(
      `--reporter must be ${EXPECTED.reporters.must}, not ${JSON.stringify(bad)} (e.g. ${EXPECTED.reporters.example}).`,
    );
  }
  return [...new Set(list as ReporterName[])];
}

async function runMerge(args: readonly string[], io: CliIo): Promise<number> {
  const argv = parseArgv(args, { flags: FLAGS, positionals: { name: 'partial report(s)', min: 1 } });
  const reporters = reportersOf(argv.values.reporters);
  const shownDir =
    typeof argv.values.outputDir === 'string' ? argv.values.outputDir : OPTION_DEFAULTS.outputDir;
  const outputDir = resolve(io.cwd, shownDir);
  const parts = [];
  for (const path of argv.positionals) parts.push(await readPartialReport(path, io.cwd));
  const ordered = checkShards(parts);
  const { report, exitCode } = mergeReports(ordered);
  const strict = (report.options as { strict?: unknown } | undefined)?.strict === true;
  if (reporters.some((r) => r !== 'console')) await prepareOutputDir(outputDir, shownDir);
  const files = await writeReports(
    report,
    { reporters, outputDir, strict },
    { ...BUILTIN_RENDERERS, json: (r) => renderJsonReport(r), markdown: renderMarkdown },
  );
  const count = ordered.length;
  writeLine(
    io.stdout,
    `ahp-conformance merge: ${count} shard${count === 1 ? '' : 's'} of one ${report.role} run`,
  );
  if (reporters.includes('console')) writeLine(io.stdout, renderConsoleSummary(report, { strict, files }));
  else for (const file of files) writeLine(io.stdout, `Report: ${file}`);
  return exitCode === 0 ? EXIT.ok : EXIT.conformanceFailure;
}

/** The `merge` subcommand. */
export const mergeCommand: Command = {
  name: 'merge',
  help: HELP,
  flags: Object.keys(FLAGS),
  run: runMerge,
};
