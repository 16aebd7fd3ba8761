/**
 * The verdict of a run in words, the same in the console, Markdown and HTML: whether it passed,
 * why not (its problems), and how much of the suite it exercised, so that "conformant" never
 * hides that most cases could not run. Also how far each claimed profile was exercised.
 */
import type { ProfileCoverage } from '../../suites/coverage/index.js';
import { baselineFails } from '../known-failures/apply.js';
import { uniqueCases } from './escape.js';
import { failingProblems } from './report-problems.js';
import { conformanceExitCode, type Report } from './report.js';
import { caseVerdict } from './status.js';
import { counted } from './count.js';
import { NOT_RUN_AFTER_BAIL } from '../runner/case-result.js';

/** How many names a list shows before it says "..." */
const SHOWN = 5;

function list(items: readonly string[], shown = SHOWN): string {
  return items.length <= shown ? items.join(', ') : `${items.slice(0, shown).join(', ')}, ...`;
}

const plural = counted;

/**
 * What untested cases lacked, in few words: the bindings and features the target does not
 * announce (most cases first), then how many were untested for other reasons.
 */
export function untestedWhy(notes: readonly (string | undefined)[]): string {
  const missing = new Map<string, number>();
  const others = new Map<string, number>();
  for (const note of notes) {
    const m = /^the (driver|backend|target) does not (?:announce|declare|support) (.+)$/.exec(note ?? '');
    if (!m) {
      const why = note ?? 'no reason given';
      others.set(why, (others.get(why) ?? 0) + 1);
      continue;
    }
    for (const raw of (m[2] as string).split(/, (?=features\.|the )/)) {
      const what = raw
        .replace(/^the (\S+) binding$/, '$1')
        .replace(/^features\.events with .*/, 'events')
        .replace(/^features\./, '');
      missing.set(what, (missing.get(what) ?? 0) + 1);
    }
  }
  const mostFirst = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]).map(([k]) => k);
  const lacking = mostFirst(missing);
  const other = [...others.values()].reduce((sum, n) => sum + n, 0);
  const parts: string[] = [];
  if (lacking.length > 0) parts.push(`the target does not announce ${list(lacking)}`);
  if (other > 0 && lacking.length > 0) parts.push(`${other} for other reasons`);
  else if (other > 0) {
    const [top] = mostFirst(others);
    const rest = other - (others.get(top as string) ?? 0);
    parts.push(`${top}${rest > 0 ? `; ${rest} for other reasons` : ''}`);
  }
  return parts.join('; ');
}

/** How much of the suite ran to a verdict, and what kept the rest from it. */
export function exercised(report: Report): { judged: number; total: number; rest: string[] } {
  const cases = uniqueCases(report.requirements);
  const judged = cases.filter((c) => ['pass', 'fail', 'warn', 'known-failure'].includes(caseVerdict(c)));
  const untested = cases.filter((c) => c.status === 'untested');
  const blocked = cases.filter((c) => c.status === 'blocked');
  const skipped = cases.filter((c) => c.status === 'skipped');
  const rest: string[] = [];
  if (untested.length > 0)
    rest.push(`${untested.length} untested (${untestedWhy(untested.map((c) => c.note))})`);
  if (blocked.length > 0) {
    const by = [...new Set(blocked.flatMap((c) => c.blockedBy ?? []))];
    rest.push(`${blocked.length} blocked${by.length > 0 ? ` (by ${list(by)})` : ''}`);
  }
  const unselected = skipped.filter((c) => c.note?.startsWith('not selected') === true).length;
  const bailed = skipped.filter((c) => c.note === NOT_RUN_AFTER_BAIL).length;
  if (unselected > 0) rest.push(`${unselected} not selected (--only/--skip)`);
  if (bailed > 0) rest.push(`${bailed} not run (--bail stopped the run at the first failed case)`);
  if (skipped.length > unselected + bailed) rest.push(`${skipped.length - unselected - bailed} skipped`);
  return { judged: judged.length, total: cases.length, rest };
}

/** Why a run failed: its problems that fail it, a stale baseline, run errors, warnings under --strict. */
function failedBecause(report: Report, strict: boolean): string[] {
  const why: string[] = [];
  const failing = failingProblems(report.problems, strict);
  if (failing.length > 0) {
    const ids = [...new Set(failing.map((p) => p.requirement))];
    why.push(
      `${plural(failing.length, 'problem')} fail${failing.length === 1 ? 's' : ''} the run (${list(ids)})`,
    );
  } else if (report.summary.failed > 0) why.push(`${plural(report.summary.failed, 'MUST case')} failed`);
  if (strict && report.summary.warnings > 0)
    why.push(`${plural(report.summary.warnings, 'SHOULD warning')} under --strict`);
  if (report.runErrors.length > 0) why.push(plural(report.runErrors.length, 'run error'));
  if (baselineFails(report.baseline)) why.push('a stale known-failures line');
  return why;
}

/** The verdict sentence (no "Verdict:" label, no final stop). */
export function verdictText(report: Report, strict: boolean): string {
  const { judged, total, rest } = exercised(report);
  const tail = rest.length > 0 ? `; ${rest.join('; ')}` : '';
  if (report.stopped)
    return `none: the run stopped before every case was judged (the target stopped being usable); ${judged} of ${counted(total, 'case')} judged${tail}`;
  if (conformanceExitCode(report, strict) !== 0)
    return `not conformant: ${failedBecause(report, strict).join('; ')}; ${judged} of ${counted(total, 'case')} judged${tail}`;
  const warnings =
    report.summary.warnings > 0 ? `; ${plural(report.summary.warnings, 'SHOULD warning')}` : '';
  const known =
    report.summary.knownFailures > 0 ? `; ${plural(report.summary.knownFailures, 'known failure')}` : '';
  if (judged === total && total > 0)
    return `conformant: ${total === 1 ? 'the one case' : `all ${total} cases`} judged, no MUST requirement failed${warnings}${known}`;
  return `conformant on what ran: ${judged} of ${counted(total, 'case')}${tail}${warnings}${known}`;
}

/** How far a claimed profile was exercised: every requirement checked, some, or none. */
export function profileExtent(p: ProfileCoverage): 'fully' | 'partly' | 'not' {
  const all = p.checked.length + p.untested.length + p.excluded.length;
  if (p.checked.length === 0) return 'not';
  return p.checked.length === all ? 'fully' : 'partly';
}

/** One line per claimed profile: "base: partly exercised (10 of 13 requirements; untested AHP-X, ...)". */
export function profileLines(report: Report): string[] {
  return (report.claim.coverage ?? []).map((p) => {
    const all = p.checked.length + p.untested.length + p.excluded.length;
    const unchecked = [...p.untested, ...p.excluded].map((u) => u.id);
    const which = unchecked.length > 0 ? `; not checked: ${list(unchecked)}` : '';
    return `${p.profile}: ${profileExtent(p)} exercised (${p.checked.length} of ${counted(all, 'requirement')} checked${which})`;
  });
}
