/**
 * Which problems a known-failures baseline covers. One defect is one problem, so a line for the
 * root problem covers every case it explains or blocks: a line that names the problem's
 * requirement (its ID, a profile holding it, or a pattern over all its case names), or one that
 * tolerates every failing case of the problem. A run fails for each MUST problem no line covers,
 * so a baseline never hides a new defect behind the cases it blocks.
 */
import { requirementById } from '../../protocol/requirements.js';
import { groupProblems, type Problem, type ProblemCase } from '../../suites/common/index.js';
import { selects, type SelectableCase, type Selector } from '../selection/selector.js';
import type { KnownFailureEntry } from './parse.js';

/** What covering needs of a case. */
export interface CoverableCase extends ProblemCase, SelectableCase {
  note?: string;
}

/** The note of a case a line tolerates (`via` says through which problem, when not directly). */
export function knownFailureNote(entry: Pick<KnownFailureEntry, 'line' | 'reason'>, via = ''): string {
  return `known failure (line ${entry.line}${via}): ${entry.reason}`;
}

/** Grouping sees a tolerated failure as the failure it is: a known problem is still a problem. */
export function asFailing<T extends { status: string }>(c: T): T {
  return c.status === 'known-failure' ? { ...c, status: 'fail' } : c;
}

/** The run's problems, tolerated failures included. */
export function problemsOf(cases: readonly ProblemCase[]): Problem[] {
  return groupProblems(cases.map(asFailing));
}

/** True when a line names a whole requirement: its ID, a profile holding it, or a pattern over every case name under it. */
export function namesRequirement(selector: Selector, id: string): boolean {
  const profiles = requirementById(id)?.profiles ?? [];
  // Case names start with their requirement ID and a slash: a pattern that matches that prefix
  // matches every name below it.
  return selects(selector, { name: `${id}/`, requirements: [id], profiles });
}

/**
 * Marks the problems the lines cover: the failing cases they explain become known failures too.
 * Returns the cases and, per line (in file order), the keys of the problems it covers.
 */
export function coverProblems<T extends CoverableCase>(
  cases: readonly T[],
  entries: readonly KnownFailureEntry[],
): { cases: T[]; covers: string[][] } {
  const byName = new Map(cases.map((c) => [c.name, c]));
  const covers = entries.map((): string[] => []);
  const notes = new Map<string, string>();
  for (const p of problemsOf(cases)) {
    const failing = p.cases.slice(0, p.failing).flatMap((name) => byName.get(name) ?? []);
    let at = entries.findIndex((e) => namesRequirement(e.selector, p.requirement));
    if (at === -1 && failing.length > 0 && failing.every((c) => c.status === 'known-failure'))
      at = entries.findIndex((e) => failing.some((c) => selects(e.selector, c)));
    const entry = entries[at];
    if (entry === undefined) continue;
    covers[at]?.push(p.key);
    for (const c of failing)
      if (c.status === 'fail') notes.set(c.name, knownFailureNote(entry, `, through ${p.requirement}`));
  }
  const out = cases.map((c) => {
    const note = notes.get(c.name);
    return note === undefined ? c : { ...c, status: 'known-failure' as const, note };
  });
  return { cases: out, covers };
}
