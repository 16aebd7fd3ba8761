/**
 * A run under a selection starts only the files holding chosen cases; the report still lists
 * every collected case, the others as skipped with the note that says why.
 */
import type { CaseResult } from '../runner/case-result.js';
import type { CollectedCase } from '../selection/collect.js';

/** The note of a case the selection (or the shard) left out. */
export const NOT_SELECTED = 'not selected (--only/--skip)';

/** A collected case the selection left out, as the report shows it. */
function unselected(c: CollectedCase): CaseResult {
  return {
    name: c.name,
    file: c.file,
    requirements: c.requirements,
    level: c.level,
    transports: c.transports,
    profiles: c.profiles,
    status: 'skipped',
    durationMs: 0,
    errors: [],
    note: NOT_SELECTED,
  };
}

/**
 * Under a selection the run starts only the files holding chosen cases (each file costs a worker
 * and its fixtures); every other collected case is reported skipped, so the report still lists
 * the whole suite.
 */
export function withUnselected(
  ran: readonly CaseResult[],
  universe: readonly CollectedCase[],
  chosen: ReadonlySet<string>,
): CaseResult[] {
  const key = (c: { file: string; name: string }) => `${c.file}\0${c.name}`;
  const results = new Map(ran.map((c) => [key(c), c]));
  const ordered = universe.map((c) => {
    const result = results.get(key(c));
    results.delete(key(c));
    if (!result) return unselected(c);
    return chosen.has(c.name) || result.status !== 'skipped' ? result : { ...result, note: NOT_SELECTED };
  });
  // A case the run saw but collection did not (declared only at run time) keeps its result.
  return [...ordered, ...results.values()];
}

/** The files holding these cases: a run over them alone skips worker starts for the rest. */
export function filesOf(cases: readonly { file: string }[]): string[] {
  return [...new Set(cases.map((c) => c.file))];
}
