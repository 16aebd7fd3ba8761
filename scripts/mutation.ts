// `npm run mutation -- <target> [options]`: the suite's mutation score (docs/mutation.md).
// StrykerJS mutates the target's code in a sandbox and each mutant is judged by the conformance
// suite itself, through the CLI (scripts/mutation/). The run prints its time and score and updates
// mutation/summary.json; --incremental reuses mutation/<target>.incremental.json (only changed
// code and changed cases run again); --check exits 1 when the score is below the committed one or
// an equivalent entry is stale; --run-equivalents also runs the listed equivalents; --mutate
// narrows the run to some of the target's files (or `file:line-line` ranges) and leaves the
// summary alone.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { PartialStrykerOptions } from '@stryker-mutator/api/core';
import { Stryker } from '@stryker-mutator/core';
import { equivalentsPath, readEquivalents, SKIP_EQUIVALENTS_ENV } from './mutation/equivalents.js';
import { liveLogPath } from './mutation/live-log.js';
import {
  outcomesOfLiveLog,
  outcomesOfReport,
  summarize,
  summaryLines,
  type StrykerReport,
  type TargetSummary,
} from './mutation/summary.js';
import { TARGET_ENV, TARGETS } from './mutation/targets.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SUMMARY = join(ROOT, 'mutation/summary.json');
const EQUIVALENT = equivalentsPath(ROOT);

/**
 * The incremental file is committed: it keeps what a rerun needs (sources, mutants, tests) without
 * this machine's paths (Stryker's config and project root, sandbox and temporary folders in the
 * console tails it keeps as reasons).
 */
function tidyIncremental(path: string): void {
  if (!existsSync(path)) return;
  const report = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  delete report.config;
  delete report.projectRoot;
  const text = JSON.stringify(report)
    .replace(/[^"\s]*\.stryker-tmp\/sandbox-[^/]+\//g, '')
    .split(ROOT)
    .join('')
    .replace(/\/tmp\/ahp-mutation-[a-z]+-[A-Za-z0-9]+/g, '<temporary folder>');
  writeFileSync(path, text);
}

function fail(message: string): never {
  process.stderr.write(`mutation: ${message}\n`);
  process.exit(2);
}

const { values, positionals } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        incremental: { type: 'boolean', default: false },
        check: { type: 'boolean', default: false },
        concurrency: { type: 'string', default: '2' },
        mutate: { type: 'string', multiple: true },
        help: { type: 'boolean', default: false },
        'summarize-only': { type: 'boolean', default: false },
        'run-equivalents': { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    return fail(`${(error as Error).message}; see npm run mutation -- --help`);
  }
})();

const USAGE = `Usage: npm run mutation -- <${Object.keys(TARGETS).join('|')}> [--incremental] [--check] [--concurrency <n>] [--mutate <file>...] [--run-equivalents]
The conformance suite's mutation score (docs/mutation.md): StrykerJS mutates the target, the suite judges each mutant.
  --incremental     reuse mutation/<target>.incremental.json: only changed code and changed cases run again
  --check           exit 1 when the score is below the one committed in mutation/summary.json, or an entry of
                    mutation/equivalent.json is stale
  --concurrency <n> mutants judged side by side (default 2)
  --mutate <file>   only these of the target's files (or file:line-line); leaves mutation/summary.json alone
  --run-equivalents  run the mutants mutation/equivalent.json lists too (by default they are not run): a listed one
                    a case kills is then printed as a stale entry
  --summarize-only  no run: the summary again from the last run's report (after editing mutation/equivalent.json)`;
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

const name = positionals[0];
const target = name === undefined ? undefined : TARGETS[name];
if (target === undefined || positionals.length !== 1) {
  fail(
    `name one target: ${Object.keys(TARGETS).join(' or ')} (got ${positionals.length === 0 ? 'none' : positionals.join(' ')})`,
  );
}
const concurrency = Number(values.concurrency);
if (!Number.isInteger(concurrency) || concurrency < 1)
  fail(`--concurrency takes a whole number of 1 or more (got "${values.concurrency}")`);

const narrowed = values.mutate !== undefined;
const fileOf = (pattern: string) => pattern.replace(/:\d+(:\d+)?-\d+(:\d+)?$/, '');
const targetFiles = [...new Set(target.mutate.map(fileOf))];
for (const pattern of values.mutate ?? []) {
  if (!targetFiles.includes(fileOf(pattern))) {
    fail(`--mutate ${pattern}: not one of the ${target.name} target's files (${targetFiles.join(', ')})`);
  }
}

const readJson = <T>(path: string, fallback: T): T =>
  existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as T) : fallback;
const summaries = readJson<Record<string, TargetSummary>>(SUMMARY, {});
const committedScore = summaries[target.name]?.score;
const equivalents = readEquivalents(EQUIVALENT);

const reportPath = join(ROOT, `reports/mutation/${target.name}.json`);
const relativeToRoot = (file: string) => relative(ROOT, resolve(ROOT, file)).split('\\').join('/');

if (values['summarize-only']) {
  // The summary of the last run again, e.g. after mutation/equivalent.json gained entries; from
  // the live log, marked partial, when the run was cut off before its report.
  const previous = summaries[target.name];
  const logPath = join(ROOT, liveLogPath(target.name));
  const fromReport =
    existsSync(reportPath) &&
    (!existsSync(logPath) || statSync(reportPath).mtimeMs >= statSync(logPath).mtimeMs);
  if (!fromReport && !existsSync(logPath)) {
    fail(
      `--summarize-only needs a run of ${target.name} to summarize (reports/mutation/${target.name}.json or its live log); run it first`,
    );
  }
  const log = fromReport ? undefined : outcomesOfLiveLog(readFileSync(logPath, 'utf8'));
  const outcomes =
    log?.mutants ?? outcomesOfReport(JSON.parse(readFileSync(reportPath, 'utf8')) as StrykerReport);
  // A cut-off run's time: from the log's creation (the run's start) to its last verdict.
  const logTimes = log === undefined ? undefined : statSync(logPath);
  const runTime =
    logTimes !== undefined
      ? { seconds: Math.round((logTimes.mtimeMs - logTimes.birthtimeMs) / 1000), incremental: false }
      : (previous?.run ?? { seconds: 0, incremental: false });
  const again = summarize(target.description, runTime, outcomes, equivalents, relativeToRoot);
  const kept: TargetSummary = {
    ...again,
    ...(previous?.fullRunSeconds === undefined ? {} : { fullRunSeconds: previous.fullRunSeconds }),
    ...(log === undefined
      ? {}
      : {
          partial: {
            judged: log.mutants.length,
            ...(log.planned === undefined ? {} : { planned: log.planned }),
          },
        }),
  };
  for (const line of summaryLines(target.name, kept)) process.stdout.write(`${line}\n`);
  writeFileSync(SUMMARY, `${JSON.stringify({ ...summaries, [target.name]: kept }, null, 2)}\n`);
  process.exit(0);
}

process.env[TARGET_ENV] = target.name;
if (values['run-equivalents']) delete process.env[SKIP_EQUIVALENTS_ENV];
else process.env[SKIP_EQUIVALENTS_ENV] = ROOT;
const started = Date.now();
const stryker = new Stryker({
  testRunner: 'ahp-conformance',
  plugins: [join(ROOT, 'scripts/mutation/plugins.mjs')],
  mutate: values.mutate ?? target.mutate,
  coverageAnalysis: 'perTest',
  concurrency,
  // A mutant's budget: the units it runs took unmutated, doubled, plus a minute (a hang meets the
  // suite's own call timeout first and fails the case).
  timeoutFactor: 2,
  timeoutMS: 60_000,
  dryRunTimeoutMinutes: 60,
  disableTypeChecks: false,
  incremental: !narrowed,
  force: !values.incremental,
  incrementalFile: `mutation/${target.name}.incremental.json`,
  tempDirName: '.stryker-tmp',
  ignorePatterns: ['/dist', '/reports', '/mutation', '/coverage', '/out'],
  reporters: ['progress', 'json', 'ahp-live-log'],
  jsonReporter: { fileName: relative(ROOT, reportPath) },
  // A const enum in Stryker's types, spelled as its value.
  fileLogLevel: 'off' as NonNullable<PartialStrykerOptions['fileLogLevel']>,
  cleanTempDir: true,
});
const results = await stryker.runMutationTest();
tidyIncremental(join(ROOT, `mutation/${target.name}.incremental.json`));
const run = { seconds: Math.round((Date.now() - started) / 1000), incremental: values.incremental };

const summarized = summarize(target.description, run, results, equivalents, relativeToRoot);
// A narrowed run judged part of the target's files: entries outside it are not stale.
if (narrowed) summarized.staleEquivalents = [];
const fullRunSeconds = run.incremental ? summaries[target.name]?.fullRunSeconds : run.seconds;
const summary: TargetSummary = {
  ...summarized,
  ...(fullRunSeconds === undefined ? {} : { fullRunSeconds }),
};
for (const line of summaryLines(target.name, summary)) process.stdout.write(`${line}\n`);
if (!narrowed) {
  mkdirSync(join(ROOT, 'mutation'), { recursive: true });
  writeFileSync(SUMMARY, `${JSON.stringify({ ...summaries, [target.name]: summary }, null, 2)}\n`);
  process.stdout.write('mutation/summary.json updated.\n');
}
process.stdout.write(
  `The full report: reports/mutation/${target.name}.json (each verdict as it came: ${liveLogPath(target.name)})\n`,
);

if (values.check && committedScore !== undefined && summary.score < committedScore) {
  process.stderr.write(
    `mutation: the ${target.name} score fell to ${summary.score}% from the committed ${committedScore}%\n`,
  );
  process.exit(1);
}
if (values.check && summary.staleEquivalents.length > 0) {
  process.stderr.write(
    `mutation: mutation/equivalent.json has ${summary.staleEquivalents.length} stale ${target.name} entr${summary.staleEquivalents.length === 1 ? 'y' : 'ies'} (listed above); remove or move them to the mutants they now name\n`,
  );
  process.exit(1);
}
