/**
 * `ahp-conformance list --coverage [--json]`: the coverage registry as a matrix, one row per
 * requirement ID (level, cases per side, the proofs that its checks can fail, or why no case
 * checks it), then what keeps it from being complete.
 */
import {
  buildRegistry,
  coverageProblems,
  defaultRegistryInput,
  type CoverageCase,
  type CoverageEntry,
} from '../../suites/coverage/index.js';
import { counted } from '../report/count.js';

/** The registry over `cases`, and its problems. */
export function coverageOf(cases: readonly CoverageCase[]): {
  registry: CoverageEntry[];
  problems: string[];
} {
  const input = defaultRegistryInput(cases);
  return { registry: buildRegistry(input), problems: coverageProblems(input) };
}

function proofsCell(e: CoverageEntry): string {
  const parts = [
    ...e.twins.harness.map((t) => `harness:${t}`),
    ...e.twins.backend.map((t) => `backend:${t}`),
    ...e.negatives.map((n) => `test:${n.file.split('/').pop() ?? n.file}`),
  ];
  return parts.join(', ') || '-';
}

function casesCell(e: CoverageEntry): string {
  const parts = [];
  if (e.cases.harness.length > 0) parts.push(`${e.cases.harness.length} harness`);
  if (e.cases.backend.length > 0) parts.push(`${e.cases.backend.length} backend`);
  return parts.join(', ') || '-';
}

function excludedCell(e: CoverageEntry): string {
  return e.excluded ? `${e.excluded.kind}: ${e.excluded.reason}` : '';
}

/** The matrix for people, with the problems after it. */
export function coverageText(
  registry: readonly CoverageEntry[],
  problems: readonly string[],
  table: (rows: string[][]) => string[],
): string {
  const rows = [
    ['ID', 'level', 'cases', 'proofs', 'excluded'],
    ...registry.map((e) => [e.id, e.level, casesCell(e), proofsCell(e), excludedCell(e)]),
  ];
  const checked = registry.filter((e) => !e.excluded).length;
  const lines = [
    ...table(rows),
    '',
    `${counted(registry.length, 'requirement')}: ${checked} with cases, ${registry.length - checked} excluded.`,
  ];
  if (problems.length === 0)
    lines.push('Every requirement has cases and proofs, or an exclusion with its reason.');
  else lines.push(`${counted(problems.length, 'coverage problem')}:`, ...problems.map((p) => `  ${p}`));
  return lines.join('\n');
}

/** The same as one JSON object: `{"requirements": [...], "problems": [...]}`. */
export function coverageJson(registry: readonly CoverageEntry[], problems: readonly string[]): string {
  return JSON.stringify({ requirements: registry, problems }, null, 2);
}
