/**
 * mutation/equivalent.json: the mutants no conformance case can tell from the original, each with
 * the reason. A mutant is named by its file, position, mutator and replacement; the same four in a
 * Stryker result are the same mutant.
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
  reason: string;
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

export function equivalentKey(
  file: string,
  line: number,
  column: number,
  mutator: string,
  replacement: string,
): string {
  return `${file}:${line}:${column} ${mutator} ${replacement}`;
}

export function readEquivalents(path: string): EquivalentMutant[] {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as EquivalentMutant[]) : [];
}

/** The keys of the entries, for looking a mutant up. */
export function equivalentKeys(entries: readonly EquivalentMutant[]): Set<string> {
  return new Set(entries.map((e) => equivalentKey(e.file, e.line, e.column, e.mutator, e.replacement)));
}
