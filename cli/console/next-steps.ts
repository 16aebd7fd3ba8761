/**
 * What a failing run prints last: where its reports are, how to replay it, and how to rerun one
 * failing case, as command lines the user can paste.
 */
import type { Report } from '../report/report.js';

/** List flags: like the parser, they take the plain words after them too (`--only A B`). */
const LISTS = new Set(['--only', '--skip']);

/**
 * Flags the rerun of one failing case sets or must not keep: its own `--only`, no `--skip` or
 * `--shard` (either could leave the one case out), and no `--known-failures` (the other entries
 * would match no selected case, and a failing case is not a listed one).
 */
const NOT_IN_RERUN = new Set(['--seed', '--only', '--skip', '--shard', '--known-failures']);

/** A shell word: bare when it is plain, single-quoted otherwise. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The options part of `args` (before `--`) without the flags in `drop` and their values. */
function withoutFlags(head: readonly string[], drop: ReadonlySet<string>): string[] {
  const kept: string[] = [];
  for (let i = 0; i < head.length; i++) {
    const arg = head[i] as string;
    const flag = arg.split('=')[0] as string;
    if (!drop.has(flag)) {
      kept.push(arg);
      continue;
    }
    if (arg.includes('=')) continue;
    i++; // the value
    while (LISTS.has(flag) && i + 1 < head.length && !(head[i + 1] as string).startsWith('-')) i++;
  }
  return kept;
}

/**
 * The closing lines of a run that did not pass (empty for one that did): the report files
 * written, the replay command (every option and selection of the run, with its seed), and a
 * rerun of its first failing case alone.
 */
export function nextSteps(
  report: Report,
  run: { command: string; args: readonly string[]; files: readonly string[]; failed: boolean },
): string[] {
  if (!run.failed) return [];
  const dashes = run.args.indexOf('--');
  const head = dashes === -1 ? run.args : run.args.slice(0, dashes);
  const trailing = dashes === -1 ? [] : run.args.slice(dashes);
  const line = (options: string[]) =>
    ['npx', 'ahp-conformance', run.command, ...options, ...trailing].map(shellWord).join(' ');
  const seed = ['--seed', String(report.seed)];
  const lines = ['', 'Next:'];
  for (const file of run.files) lines.push(`  read the report:     ${file}`);
  lines.push(`  replay this run:     ${line([...withoutFlags(head, new Set(['--seed'])), ...seed])}`);
  const failing = report.requirements.flatMap((r) => r.cases).find((c) => c.status === 'fail');
  if (failing) {
    const options = [...withoutFlags(head, NOT_IN_RERUN), '--only', failing.name, ...seed];
    lines.push(`  rerun one failure:   ${line(options)}`);
  }
  return lines;
}
