/**
 * How each common option reaches the replay and rerun lines a failing run prints: every option
 * that changes a verdict is carried with the value the run used (the timeout scale with the value
 * its waits were applied at, raised on a busy machine), and every other one says why it is left
 * out. Keyed by the schema's own keys, so a new option cannot be added without deciding here.
 * Pure.
 */
import { isAbsolute, relative } from 'node:path';
import type { ResolvedOptions } from './resolve.js';
import { FLAG_OF, OPTION_DEFAULTS, REPORTER_FILES, type CommonOptionKey } from './schema.js';

/** What a line is rendered from. */
export interface ReplayContext {
  options: ResolvedOptions;
  /** The timeout scale the run's waits ran at: --timeout-scale, raised to the machine's slowness. */
  appliedTimeoutScale: number;
  /** The seed the run used (the report's). */
  seed: number;
  /** Where the line's own reports go (absolute): never the run's own output folder. */
  outputDir: string;
  /** Paths are shown relative to this folder when they are inside it. */
  cwd: string;
}

/** One option's place in the lines. */
export interface ReplayRule {
  /** True when the option can change a verdict or the exit code: it must be carried. */
  changesVerdict: boolean;
  /** Why the option is rendered as it is, or left out. */
  why: string;
  /** Its words in the replay line (empty: left out). */
  replay(c: ReplayContext): string[];
  /**
   * Its words in the rerun of one failing case. Undefined: the rerun's own selection (`--only`
   * <the case>) replaces it.
   */
  rerun?(c: ReplayContext): string[];
}

/** A path as a user in `cwd` would type it. */
export function shownPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  if (rel === '') return '.';
  return rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

const flag = (key: CommonOptionKey, value: string | number): string[] => [FLAG_OF[key], String(value)];
const whenNot = <T>(value: T, fallback: T, words: () => string[]): string[] =>
  value === fallback ? [] : words();

/** Every common option (the keys of `commonOptionsSchema`), carried or declared verdict-neutral. */
export const REPLAY_OPTIONS: Readonly<Record<CommonOptionKey, ReplayRule>> = {
  only: {
    changesVerdict: true,
    why: 'the selection: which cases run',
    replay: ({ options }) => options.only.flatMap((s) => flag('only', s)),
  },
  skip: {
    changesVerdict: true,
    why: 'the selection: which cases run',
    replay: ({ options }) => options.skip.flatMap((s) => flag('skip', s)),
  },
  seed: {
    changesVerdict: true,
    why: "the property cases' inputs",
    replay: ({ seed }) => flag('seed', seed),
    rerun: ({ seed }) => flag('seed', seed),
  },
  runs: {
    changesVerdict: true,
    why: 'how many inputs each property tries',
    replay: ({ options }) => whenNot(options.runs, OPTION_DEFAULTS.runs, () => flag('runs', options.runs)),
    rerun: ({ options }) => whenNot(options.runs, OPTION_DEFAULTS.runs, () => flag('runs', options.runs)),
  },
  timeoutScale: {
    changesVerdict: true,
    why: 'every real-time wait, at the scale the run applied (raised on a busy machine)',
    replay: ({ appliedTimeoutScale: s }) => whenNot(s, 1, () => flag('timeoutScale', s)),
    rerun: ({ appliedTimeoutScale: s }) => whenNot(s, 1, () => flag('timeoutScale', s)),
  },
  repeat: {
    changesVerdict: true,
    why: 'how often timing cases run (pass, fail or flaky)',
    replay: ({ options }) =>
      whenNot(options.repeat, OPTION_DEFAULTS.repeat, () => flag('repeat', options.repeat)),
    rerun: ({ options }) =>
      whenNot(options.repeat, OPTION_DEFAULTS.repeat, () => flag('repeat', options.repeat)),
  },
  strict: {
    changesVerdict: true,
    why: 'whether SHOULD failures fail the run',
    replay: ({ options }) => (options.strict ? [FLAG_OF.strict] : []),
    rerun: ({ options }) => (options.strict ? [FLAG_OF.strict] : []),
  },
  bail: {
    changesVerdict: true,
    why: 'the cases after the first failure: a run with --bail does not reach them',
    replay: ({ options }) => (options.bail ? [FLAG_OF.bail] : []),
    rerun: ({ options }) => (options.bail ? [FLAG_OF.bail] : []),
  },
  quiet: {
    changesVerdict: false,
    why: 'the console only (a quiet run prints no next steps at all)',
    replay: () => [],
    rerun: () => [],
  },
  protocolVersion: {
    changesVerdict: true,
    why: 'the revision the cases are judged against',
    replay: ({ options }) =>
      whenNot(options.protocolVersion, OPTION_DEFAULTS.protocolVersion, () =>
        flag('protocolVersion', options.protocolVersion),
      ),
    rerun: ({ options }) =>
      whenNot(options.protocolVersion, OPTION_DEFAULTS.protocolVersion, () =>
        flag('protocolVersion', options.protocolVersion),
      ),
  },
  reporters: {
    changesVerdict: false,
    why: 'which report files are written; kept, so the line writes the same kinds of report',
    replay: ({ options }) => reporterWords(options),
    rerun: ({ options }) => reporterWords(options),
  },
  outputDir: {
    changesVerdict: false,
    why: "where reports go: a folder of the line's own, never over the run's report",
    replay: ({ outputDir, cwd }) => flag('outputDir', shownPath(outputDir, cwd)),
    rerun: ({ outputDir, cwd }) => flag('outputDir', shownPath(outputDir, cwd)),
  },
  knownFailures: {
    changesVerdict: true,
    why: 'the baseline: which failures do not fail the run',
    replay: ({ options, cwd }) => knownFailuresWords(options, cwd),
    rerun: ({ options, cwd }) => knownFailuresWords(options, cwd),
  },
  shard: {
    changesVerdict: true,
    why: 'the selection: which share of the cases runs',
    replay: ({ options }) =>
      options.shard ? flag('shard', `${options.shard.index}/${options.shard.count}`) : [],
  },
};

function reporterWords(options: ResolvedOptions): string[] {
  // The console reports in any case.
  const files = options.reporters.filter((r) => REPORTER_FILES[r] !== undefined);
  return files.flatMap((r) => flag('reporters', r));
}

function knownFailuresWords(options: ResolvedOptions, cwd: string): string[] {
  const kf = options.knownFailures;
  if (!kf) return [];
  return flag('knownFailures', kf.path === undefined ? kf.file : shownPath(kf.path, cwd));
}

/** The common options' words of a replay (`rerun` false) or of a rerun of one case. */
export function commonOptionWords(c: ReplayContext, rerun: boolean): string[] {
  return (Object.keys(REPLAY_OPTIONS) as CommonOptionKey[]).flatMap((key) => {
    const rule = REPLAY_OPTIONS[key];
    return rerun ? (rule.rerun?.(c) ?? []) : rule.replay(c);
  });
}
