/**
 * What a failing run prints last: where its reports are, how to replay it, and how to rerun one
 * failing case, as command lines the user can paste.
 */
import type { Report } from '../report/report.js';

/** Flags the replay lines set themselves, so the user's own values of them are dropped. */
const REPLACED = new Set(['--seed', '--only', '--skip']);
const LISTS = new Set(['--only', '--skip']);

/** A shell word: bare when it is plain, single-quoted otherwise. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The user's arguments without --seed/--only/--skip (and their values), split at `--`. */
function keptArgs(args: readonly string[]): { options: string[]; trailing: string[] } {
  const dashes = args.indexOf('--');
  const head = dashes === -1 ? args : args.slice(0, dashes);
  const options: string[] = [];
  for (let i = 0; i < head.length; i++) {
    const arg = head[i] as string;
    const flag = arg.split('=')[0] as string;
    if (!REPLACED.has(flag)) {
      options.push(arg);
      continue;
    }
    if (arg.includes('=')) continue;
    i++; // the value
    // A list flag takes the plain words after it too (`--only A B`).
    while (LISTS.has(flag) && i + 1 < head.length && !(head[i + 1] as string).startsWith('-')) i++;
  }
  return { options, trailing: dashes === -1 ? [] : args.slice(dashes) };
}

/**
 * The closing lines of a run that did not pass (empty for one that did): the report files
 * written, the replay command with the run's seed, and a rerun of its first failing case.
 */
export function nextSteps(
  report: Report,
  run: { command: string; args: readonly string[]; files: readonly string[]; failed: boolean },
): string[] {
  if (!run.failed) return [];
  const { options, trailing } = keptArgs(run.args);
  const line = (extra: string[]) =>
    ['npx', 'ahp-conformance', run.command, ...options, ...extra, ...trailing].map(shellWord).join(' ');
  const seed = ['--seed', String(report.seed)];
  const lines = ['', 'Next:'];
  for (const file of run.files) lines.push(`  read the report:     ${file}`);
  lines.push(`  replay this run:     ${line(seed)}`);
  const failing = report.requirements.flatMap((r) => r.cases).find((c) => c.status === 'fail');
  if (failing) lines.push(`  rerun one failure:   ${line(['--only', failing.name, ...seed])}`);
  return lines;
}
