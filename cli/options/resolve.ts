import { dirname, resolve } from 'node:path';
import type { z } from 'zod';
import type { JsonValue } from '../../protocol/json.js';
import { UsageError } from '../io.js';
import { loadKnownFailures } from '../known-failures/load.js';
import type { KnownFailures } from '../known-failures/parse.js';
import { parseSelectors } from '../selection/select.js';
import { parseArgv, type ArgvSpec, type FlagSpec, type ParsedArgv } from './argv.js';
import { readConfigFile, type ConfigFile } from './config-file.js';
import type { ShardSpec } from '../shard/plan.js';
import { prepareOutputDir } from './output-dir.js';
import {
  COMMON_OPTION_KEYS,
  commonOptionsSchema,
  EXPECTED,
  FLAG_OF,
  MAX_SEED,
  REPORTER_FILES,
  type CommonOptionKey,
  type ReporterName,
} from './schema.js';

/** The options every running command (harness, backend) shares, with every default applied. */
export interface ResolvedOptions {
  only: string[];
  skip: string[];
  seed: number;
  runs: number;
  timeoutScale: number;
  repeat: number;
  strict: boolean;
  /** Stop at the first case that fails the run; the cases not reached are reported not run. */
  bail: boolean;
  /** No progress and no summary on the console (file reports are written all the same). */
  quiet: boolean;
  protocolVersion: 'draft';
  /** Deduplicated, in the order given. */
  reporters: ReporterName[];
  /** Absolute. Created and checked writable when a reporter writes a file. */
  outputDir: string;
  knownFailures?: KnownFailures;
  /** Absolute path of the `--config` file, when one was given. */
  configFile?: string;
  /** `--shard <i>/<n>`: run only shard i of n of the selected cases; the JSON report is then written. */
  shard?: ShardSpec;
}

/** The flags of the common options, to merge into a command's argv spec. */
export const COMMON_FLAGS: Readonly<Record<string, FlagSpec>> = {
  '--only': { key: 'only', kind: 'list', placeholder: '<ID|profile|pattern>' },
  '--skip': { key: 'skip', kind: 'list', placeholder: '<ID|profile|pattern>' },
  '--seed': { key: 'seed', kind: 'value', placeholder: '<n>' },
  '--runs': { key: 'runs', kind: 'value', placeholder: '<n>' },
  '--timeout-scale': { key: 'timeoutScale', kind: 'value', placeholder: '<f>' },
  '--repeat': { key: 'repeat', kind: 'value', placeholder: '<n>' },
  '--strict': { key: 'strict', kind: 'boolean' },
  '--bail': { key: 'bail', kind: 'boolean' },
  '--quiet': { key: 'quiet', kind: 'boolean' },
  '--protocol-version': { key: 'protocolVersion', kind: 'value', placeholder: 'draft' },
  '--reporter': { key: 'reporters', kind: 'list', placeholder: 'console|json|junit|html|markdown' },
  '--output-dir': { key: 'outputDir', kind: 'value', placeholder: '<dir>' },
  '--known-failures': { key: 'knownFailures', kind: 'value', placeholder: '<file>' },
  '--config': { key: 'config', kind: 'value', placeholder: '<file>' },
  '--shard': { key: 'shard', kind: 'value', placeholder: '<i>/<n>' },
};

/** The help lines of the common options, for each command's `--help`. */
export const COMMON_HELP = `Common options:
  --only <ID|profile|pattern>...  run only these cases (repeatable; a pattern that matches nothing is an error)
  --skip <ID|profile|pattern>...  leave these cases out
  --seed <n>                      fast-check seed (printed; replays a run)
  --runs <n>                      property runs per property (default 50)
  --timeout-scale <f>             multiply every real-time margin (the run also measures a busy machine
                                  and raises its waits itself, never below this)
  --repeat <n>                    run timing cases n times: pass, fail or flaky (without it, a failing
                                  timing case runs once more: flaky if it passes then; flaky fails)
  --strict                        SHOULD failures fail the run too
  --bail                          stop at the first case that fails the run; the cases not reached
                                  are reported not run, never passed
  --quiet                         no progress and no summary on the console (report files are still written)
  --protocol-version draft        the protocol revision under test (draft, the default, is the only one)
  --reporter <name>               json, junit, html, markdown: a file each, besides the console (repeatable)
  --output-dir <dir>              where report files go (default ./reports)
  --known-failures <file>         "<pattern> # <reason>" per line: listed failures do not fail the run
  --shard <i>/<n>                 run shard i of n of the selected cases and write its partial
                                  report.json; \`ahp-conformance merge\` joins the shards' reports
  --config <file>                 a JSON file of these options (camelCase keys); flags win`;

/** Where the resolver reads from; tests pass fakes. */
export interface ResolveContext {
  cwd: string;
  /** A fresh seed when none is given; the chosen seed is reported so the run can be replayed. */
  randomSeed?: () => number;
}

/** A command line after parsing: resolved common options plus the command's own raw values. */
export interface CommandLine {
  options: ResolvedOptions;
  /** Values of the command's own flags (keys of its extra flag specs). */
  extra: ParsedArgv['values'];
  positionals: string[];
  trailing: string[] | undefined;
}

type Source = { kind: 'flag' } | { kind: 'config'; config: ConfigFile };

function describeSource(key: CommonOptionKey, source: Source | undefined): string {
  if (source?.kind === 'config') return `"${key}" in the config file "${source.config.shown}"`;
  return FLAG_OF[key];
}

function issueSentence(
  issue: z.core.$ZodIssue,
  raw: Record<string, unknown>,
  sources: Map<string, Source>,
  config: ConfigFile | undefined,
): string {
  if (issue.code === 'unrecognized_keys') {
    return `the config file "${config?.shown ?? '?'}" has an unknown key "${issue.keys[0] ?? ''}"; use only: ${COMMON_OPTION_KEYS.join(', ')}.`;
  }
  const key = issue.path[0] as CommonOptionKey;
  const index = issue.path[1];
  const whole = raw[key];
  const value = typeof index === 'number' && Array.isArray(whole) ? whole[index] : whole;
  const expected = EXPECTED[key];
  const shownValue = value === undefined ? 'nothing' : JSON.stringify(value);
  return `${describeSource(key, sources.get(key))} must be ${expected.must}, not ${shownValue} (e.g. ${expected.example}).`;
}

/**
 * Parses one command line: splits argv with the common flags plus the command's own, reads the
 * `--config` file, merges both (flags win, a list flag replaces the config's list), parses the
 * result once through the schema, and checks what can be checked before a run: selectors, the
 * known-failures file and a writable output directory.
 */
export async function parseCommandLine(
  args: readonly string[],
  spec: Omit<ArgvSpec, 'flags'> & { flags?: Readonly<Record<string, FlagSpec>> },
  context: ResolveContext,
): Promise<CommandLine> {
  const argv = parseArgv(args, { ...spec, flags: { ...COMMON_FLAGS, ...(spec.flags ?? {}) } });
  const commonKeys = new Set<string>(COMMON_OPTION_KEYS);
  const extra: ParsedArgv['values'] = {};
  const fromFlags: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(argv.values)) {
    if (commonKeys.has(key)) fromFlags[key] = value;
    else if (key !== 'config') extra[key] = value;
  }
  const configArg = argv.values.config;
  const config =
    typeof configArg === 'string'
      ? await readConfigFile(resolve(context.cwd, configArg), configArg)
      : undefined;
  const sources = new Map<string, Source>();
  const raw: Record<string, unknown> = {};
  if (config) {
    for (const [key, value] of Object.entries(config.values)) {
      raw[key] = value;
      sources.set(key, { kind: 'config', config });
    }
  }
  for (const [key, value] of Object.entries(fromFlags)) {
    raw[key] = value;
    sources.set(key, { kind: 'flag' });
  }
  const parsed = commonOptionsSchema.safeParse(raw);
  if (!parsed.success) {
    throw new UsageError(issueSentence(parsed.error.issues[0] as z.core.$ZodIssue, raw, sources, config));
  }
  const o = parsed.data;
  parseSelectors(o.only, '--only');
  parseSelectors(o.skip, '--skip');
  const baseOf = (key: CommonOptionKey): string => {
    const source = sources.get(key);
    return source?.kind === 'config' ? dirname(source.config.path) : context.cwd;
  };
  const outputDir = resolve(baseOf('outputDir'), o.outputDir);
  // A shard's JSON report is what `merge` reads: a sharded run always writes it.
  const reporters = [...new Set([...o.reporters, ...(o.shard ? (['json'] as const) : [])])];
  if (reporters.some((r) => REPORTER_FILES[r] !== undefined)) await prepareOutputDir(outputDir, o.outputDir);
  const knownFailures =
    o.knownFailures === undefined
      ? undefined
      : await loadKnownFailures(resolve(baseOf('knownFailures'), o.knownFailures), o.knownFailures);
  const seed = o.seed ?? (context.randomSeed ?? (() => Math.floor(Math.random() * MAX_SEED)))();
  const options: ResolvedOptions = {
    only: o.only,
    skip: o.skip,
    seed,
    runs: o.runs,
    timeoutScale: o.timeoutScale,
    repeat: o.repeat,
    strict: o.strict,
    bail: o.bail,
    quiet: o.quiet,
    protocolVersion: 'draft',
    reporters,
    outputDir,
    ...(knownFailures ? { knownFailures } : {}),
    ...(config ? { configFile: config.path } : {}),
    ...(o.shard ? { shard: o.shard } : {}),
  };
  return { options, extra, positionals: argv.positionals, trailing: argv.trailing };
}

/** The report's echo of the options (JSON, no secrets: options hold none). */
export function optionsForReport(options: ResolvedOptions): JsonValue {
  return {
    only: options.only,
    skip: options.skip,
    seed: options.seed,
    runs: options.runs,
    timeoutScale: options.timeoutScale,
    repeat: options.repeat,
    strict: options.strict,
    ...(options.bail ? { bail: true } : {}),
    reporters: options.reporters,
    ...(options.knownFailures ? { knownFailures: options.knownFailures.file } : {}),
    ...(options.knownFailures?.sha256 ? { knownFailuresSha256: options.knownFailures.sha256 } : {}),
  };
}
