/**
 * How a mutation run cuts the conformance suite into "tests" for Stryker: one unit per requirement
 * ID that cases are named after (a case's name starts with its first requirement). A unit is
 * selected with `--only '<ID>/**'`, so units never overlap and every case is in exactly one.
 * Coverage is recorded per unit (which mutants the unit's cases reached) and a mutant runs only
 * the units that reached it; a mutant is killed by the first case that fails.
 */
import { createHash } from 'node:crypto';

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
 * `WARN ...` for a SHOULD), or undefined for any other line. A timing case's failure is printed
 * before the CLI runs it again, but the run fails either way (flaky fails: cli/pipeline/timing-reruns.ts),
 * so the first failure line is already the run's verdict.
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

/**
 * A unit's test id for Stryker: `<unit>#<digest>`, where the digest covers the unit's case names
 * and the code that judges every case (`judging`: the suite with its cases, the CLI, the mock...).
 * An incremental run reuses a verdict only for tests whose id it saw before, so any change to the
 * suite makes every mutant run again; only a change confined to the mutated code reruns just the
 * mutants in the changed code.
 */
export function unitTestIds(caseNames: readonly string[], judging: string): Map<string, string> {
  const byUnit = new Map<string, string[]>();
  for (const name of caseNames) {
    const unit = unitOf(name);
    byUnit.set(unit, [...(byUnit.get(unit) ?? []), name]);
  }
  const ids = new Map<string, string>();
  for (const [unit, names] of byUnit) {
    const digest = createHash('sha256')
      .update(judging)
      .update('\0')
      .update([...names].sort().join('\n'));
    ids.set(unit, `${unit}#${digest.digest('hex').slice(0, 10)}`);
  }
  return ids;
}

/** The unit of a test id (`<unit>#<digest>`, or a bare unit). */
export function unitOfTestId(id: string): string {
  const hash = id.indexOf('#');
  return hash < 0 ? id : id.slice(0, hash);
}
