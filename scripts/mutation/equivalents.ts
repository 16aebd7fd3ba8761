/**
 * mutation/equivalent.json: the mutants no conformance case can tell from the original, each with
 * the reason. A mutant is named by its file, position, mutator and replacement. Two mutants can
 * share those four (a condition and its left operand start at the same place, and each may become
 * `true`): an entry then also names where its mutant ends, and lists that one only.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** An entry of mutation/equivalent.json. */
export interface EquivalentMutant {
  file: string;
  line: number;
  column: number;
  mutator: string;
  replacement: string;
  /** Where the mutated code ends (1-based, as in reports), for a mutant that shares the four above. */
  end?: Position;
  reason: string;
}

/** A place in a file, 1-based, as Stryker's reports give it. */
export interface Position {
  line: number;
  column: number;
}

/** What names a mutant: where it starts and ends, its mutator and replacement. */
export interface MutantName {
  file: string;
  start: Position;
  end?: Position | undefined;
  mutator: string;
  replacement: string;
}

/**
 * Set by scripts/mutation.ts for the runner processes when listed equivalents are not to be run
 * (the default; absent with --run-equivalents): the project's root, whose mutation/equivalent.json
 * names files relative to it. A runner works in the sandbox, but Stryker names a mutant's file by
 * its path in the project.
 */
export const SKIP_EQUIVALENTS_ENV = 'AHP_MUTATION_SKIP_EQUIVALENTS_OF';

/** Where a project keeps its list. */
export function equivalentsPath(projectRoot: string): string {
  return join(projectRoot, 'mutation/equivalent.json');
}

/** A mutant's key, with its end when the name has one. */
export function keyOf(name: MutantName): string {
  const base = `${name.file}:${name.start.line}:${name.start.column} ${name.mutator} ${name.replacement}`;
  return name.end === undefined ? base : `${base} to ${name.end.line}:${name.end.column}`;
}

function entryKey({ file, line, column, mutator, replacement, end }: EquivalentMutant): string {
  return keyOf({ file, start: { line, column }, end, mutator, replacement });
}

export function readEquivalents(path: string): EquivalentMutant[] {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as EquivalentMutant[]) : [];
}

/** The entries by key, for looking a mutant up (`lookUp`). */
export function byKey(entries: readonly EquivalentMutant[]): Map<string, EquivalentMutant> {
  return new Map(entries.map((e) => [entryKey(e), e]));
}

/** The entry that lists this mutant: the one naming its end first, else one naming the four only. */
export function lookUp(
  entries: ReadonlyMap<string, EquivalentMutant>,
  name: MutantName,
): EquivalentMutant | undefined {
  return entries.get(keyOf(name)) ?? entries.get(keyOf({ ...name, end: undefined }));
}
