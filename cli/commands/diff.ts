/**
 * `ahp-conformance diff <old report.json> <new report.json>`: what changed between two runs of the
 * same role, case by case (regressed, fixed, newly untested, newly passing, gone, new); exit 1
 * when a case regressed, so that CI can hold a run to the one before it.
 */
import { EXIT, UsageError, writeLine, type CliIo } from '../io.js';
import { parseArgv } from '../options/argv.js';
import { diffReports, renderDiff } from '../report/diff.js';
import { readReportFile } from '../report/merge-input.js';
import type { Command } from './registry.js';

const HELP = `Usage: ahp-conformance diff <old report.json> <new report.json> [--reporter console|json]

Compares two JSON reports (written with --reporter json) of harness runs, or of backend runs,
case by case and prints the counts, then one line per changed case under its heading: regressed
(did not fail before, fails now), fixed (failed before, passes now), newly untested, newly passing,
gone (ran before, not run now) and new (not run before, runs now). A case left out by the selection
counts as not run, never as passed.

Examples:
  ahp-conformance diff main/report.json branch/report.json
  ahp-conformance diff before/report.json after/report.json --reporter json > changes.json

Options:
  --reporter <name>   console (default) or json: the same changes as one JSON object on stdout

Exit codes: 0 no case regressed, 1 a case regressed, 2 a file is not a report or the two reports
are of different roles (one sentence names the file and the fix).`;

const FLAGS = {
  '--reporter': { key: 'reporter', kind: 'value', placeholder: 'console|json' },
} as const;

const FIX = 'give the report.json that a run with --reporter json wrote';

async function runDiff(args: readonly string[], io: CliIo): Promise<number> {
  const argv = parseArgv(args, {
    flags: FLAGS,
    positionals: { name: 'reports (the old one, then the new one)', min: 2 },
  });
  const [oldPath, newPath, extra] = argv.positionals as [string, string, string | undefined];
  if (extra !== undefined) {
    throw new UsageError(
      `unexpected argument "${extra}"; diff compares two reports, the old one and then the new one.`,
    );
  }
  const reporter = argv.values.reporter ?? 'console';
  if (reporter !== 'console' && reporter !== 'json') {
    throw new UsageError(
      `--reporter must be console or json, not ${JSON.stringify(reporter)} (e.g. --reporter json).`,
    );
  }
  const older = await readReportFile(oldPath, io.cwd, FIX);
  const newer = await readReportFile(newPath, io.cwd, FIX);
  if (older.role !== newer.role) {
    throw new UsageError(
      `"${oldPath}" is a ${older.role} report but "${newPath}" is a ${newer.role} report; compare two reports of the same role.`,
    );
  }
  const diff = diffReports(older, newer);
  if (reporter === 'json') {
    const body = {
      role: newer.role,
      oldReport: oldPath,
      newReport: newPath,
      unchanged: diff.unchanged,
      changes: diff.changes,
    };
    writeLine(io.stdout, JSON.stringify(body, null, 2));
  } else {
    writeLine(io.stdout, `ahp-conformance diff: ${newer.role} reports "${oldPath}" -> "${newPath}"`);
    writeLine(io.stdout, renderDiff(diff));
  }
  return diff.changes.regressed.length > 0 ? EXIT.conformanceFailure : EXIT.ok;
}

/** The `diff` subcommand. */
export const diffCommand: Command = {
  name: 'diff',
  help: HELP,
  flags: Object.keys(FLAGS),
  run: runDiff,
};
