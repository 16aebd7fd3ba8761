/**
 * How a mutation run cuts the conformance suite into "tests" for Stryker: one unit per requirement
 * ID that cases are named after (a case's name starts with its first requirement). A unit is
 * selected with `--only '<ID>/**'`, so units never overlap and every case is in exactly one.
 * Coverage is recorded per unit (which mutants the unit's cases reached) and a mutant runs only
 * the units that reached it; a mutant is killed by the first case that fails.
 */

/** The unit a case belongs to: the requirement ID its name starts with. */
export function unitOf(caseName: string): string {
  const slash = caseName.indexOf('/');
  return slash < 0 ? caseName : caseName.slice(0, slash);
}

/** The distinct units of a list of case names, in first-seen order. */
export function unitsOf(caseNames: readonly string[]): string[] {
  return [...new Set(caseNames.map(unitOf))];
}

/** `--only` arguments that select exactly the cases of these units. */
export function onlyArgs(units: readonly string[]): string[] {
  return units.flatMap((unit) => ['--only', `${unit}/**`]);
}

/**
 * The case named by a console line that reports a failure (`FAIL <name> (<ms> ms)` for a MUST,
 * `WARN ...` for a SHOULD), or undefined for any other line. The CLI prints it once a case's
 * verdict is final (after its retry on a loaded machine), so it is a kill, not a first impression.
 */
export function failedCaseOf(line: string): string | undefined {
  const match = /^(?:FAIL|WARN)\s+(\S+)/.exec(line);
  return match?.[1];
}

/** What earlier mutant runs showed: which unit killed mutants of which file. */
export interface KillRecord {
  file: string;
  unit: string;
}

/**
 * The order a mutant's units run in, likeliest killer first: the units that killed most mutants
 * of the same file, then most mutants of any file, then the units that reach the fewest mutants
 * (a narrow unit is about the code it reaches). Most mutants die, so most runs end in the first
 * few units; a survivor runs them all.
 */
export function killerOrder(
  units: readonly string[],
  file: string,
  kills: readonly KillRecord[],
  reach: Readonly<Record<string, number>>,
): string[] {
  const inFile = new Map<string, number>();
  const overall = new Map<string, number>();
  for (const kill of kills) {
    overall.set(kill.unit, (overall.get(kill.unit) ?? 0) + 1);
    if (kill.file === file) inFile.set(kill.unit, (inFile.get(kill.unit) ?? 0) + 1);
  }
  const count = (map: Map<string, number>, unit: string) => map.get(unit) ?? 0;
  return [...units].sort(
    (a, b) =>
      count(inFile, b) - count(inFile, a) ||
      count(overall, b) - count(overall, a) ||
      (reach[a] ?? Infinity) - (reach[b] ?? Infinity) ||
      a.localeCompare(b),
  );
}
