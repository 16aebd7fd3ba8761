import { z } from 'zod';

/** Every reporter `--reporter` accepts, with the file it writes (console writes none). */
export const REPORTER_FILES = {
  console: undefined,
  json: 'report.json',
  junit: 'junit.xml',
  html: 'report.html',
  markdown: 'report.md',
} as const;

export type ReporterName = keyof typeof REPORTER_FILES;
export const REPORTER_NAMES = Object.keys(REPORTER_FILES) as ReporterName[];

/** Defaults of the common options; fast-check's runs match the suites' own default. */
export const OPTION_DEFAULTS = {
  runs: 50,
  timeoutScale: 1,
  repeat: 1,
  strict: false,
  bail: false,
  quiet: false,
  protocolVersion: 'draft',
  reporters: ['console'] as ReporterName[],
  outputDir: 'reports',
} as const;

/** The largest fast-check seed: seeds are 32-bit signed integers. */
export const MAX_SEED = 2 ** 31 - 1;

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

/** Flag values arrive as strings, config values as JSON: both meet one number schema. */
const numeric = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && DECIMAL.test(v.trim()) ? Number(v) : v), schema);

const bool = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());

/** `--shard <i>/<n>`: shard i (from 1) of n. */
const SHARD_SHAPE = /^[1-9]\d*\/[1-9]\d*$/;
/** More shards than this would leave most of them empty. */
export const MAX_SHARDS = 256;

const selectorList = z.array(z.string().trim().min(1));

/**
 * The common options as one schema: flags and the config file are merged into one raw object
 * (flags win) and parsed here once, with every default applied.
 */
export const commonOptionsSchema = z.strictObject({
  only: selectorList.default([]),
  skip: selectorList.default([]),
  seed: numeric(z.int().min(0).max(MAX_SEED)).optional(),
  runs: numeric(z.int().min(1).max(1_000_000)).default(OPTION_DEFAULTS.runs),
  timeoutScale: numeric(z.number().gt(0).max(100)).default(OPTION_DEFAULTS.timeoutScale),
  repeat: numeric(z.int().min(1).max(1000)).default(OPTION_DEFAULTS.repeat),
  strict: bool.default(OPTION_DEFAULTS.strict),
  bail: bool.default(OPTION_DEFAULTS.bail),
  quiet: bool.default(OPTION_DEFAULTS.quiet),
  protocolVersion: z.enum(['draft']).default(OPTION_DEFAULTS.protocolVersion),
  reporters: z.array(z.enum(REPORTER_NAMES)).min(1).default(OPTION_DEFAULTS.reporters),
  outputDir: z.string().trim().min(1).default(OPTION_DEFAULTS.outputDir),
  knownFailures: z.string().trim().min(1).optional(),
  shard: z
    .string()
    .trim()
    .regex(SHARD_SHAPE)
    .refine((v) => {
      const [i, n] = v.split('/').map(Number) as [number, number];
      return i <= n && n <= MAX_SHARDS;
    })
    .transform((v) => {
      const [index, count] = v.split('/').map(Number) as [number, number];
      return { index, count };
    })
    .optional(),
});

export type RawCommonOptions = z.input<typeof commonOptionsSchema>;
export type ParsedCommonOptions = z.output<typeof commonOptionsSchema>;
export type CommonOptionKey = keyof ParsedCommonOptions;
export const COMMON_OPTION_KEYS = Object.keys(commonOptionsSchema.shape) as CommonOptionKey[];

/** The flag of each option, for messages and for the argv spec. */
export const FLAG_OF: Readonly<Record<CommonOptionKey, string>> = {
  only: '--only',
  skip: '--skip',
  seed: '--seed',
  runs: '--runs',
  timeoutScale: '--timeout-scale',
  repeat: '--repeat',
  strict: '--strict',
  bail: '--bail',
  quiet: '--quiet',
  protocolVersion: '--protocol-version',
  reporters: '--reporter',
  outputDir: '--output-dir',
  knownFailures: '--known-failures',
  shard: '--shard',
};

/** What each option must be and an example: the second half of every error sentence. */
export const EXPECTED: Readonly<Record<CommonOptionKey, { must: string; example: string }>> = {
  only: { must: 'a requirement ID, a profile or a case-name pattern', example: '--only AHP-FAIL-002' },
  skip: { must: 'a requirement ID, a profile or a case-name pattern', example: '--skip "AHPX-BUD-*"' },
  seed: { must: `an integer from 0 to ${MAX_SEED}`, example: '--seed 1234' },
  runs: { must: 'a whole number of property runs from 1 to 1000000', example: '--runs 200' },
  timeoutScale: { must: 'a number above 0 and at most 100', example: '--timeout-scale 2.5' },
  repeat: { must: 'a whole number of runs from 1 to 1000', example: '--repeat 5' },
  strict: { must: 'true or false', example: '--strict' },
  bail: { must: 'true or false', example: '--bail' },
  quiet: { must: 'true or false', example: '--quiet' },
  protocolVersion: {
    must: '"draft" (the only revision this suite tests)',
    example: '--protocol-version draft',
  },
  reporters: { must: `one of ${REPORTER_NAMES.join(', ')}`, example: '--reporter junit --reporter html' },
  outputDir: { must: 'a directory path', example: '--output-dir reports' },
  knownFailures: { must: 'a file path', example: '--known-failures known-failures.txt' },
  shard: {
    must: `<i>/<n>, shard i of n with 1 <= i <= n <= ${MAX_SHARDS}`,
    example: '--shard 2/3',
  },
};
