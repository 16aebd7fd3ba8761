/**
 * `ahp-conformance list --interop <file or folder>`: for each of the protocol authors' interop
 * scenarios, the cases of ours that cover it or why none does (suites/interop/coverage.ts);
 * with `--coverage`, their counts under the coverage matrix.
 */
import type { ScenarioCoverage } from '../../suites/interop/index.js';
import { counted } from '../report/count.js';

/** One row per scenario: set, id, how many cases, and their names or the reason. */
export function interopText(
  coverage: readonly ScenarioCoverage[],
  table: (rows: string[][]) => string[],
): string {
  const rows = [
    ['scenario', 'cases', 'covered by'],
    ...coverage.map((c) => [
      `${c.set}/${c.id}`,
      String(c.cases.length),
      c.cases.join(', ') || `- ${c.reason ?? ''}`,
    ]),
  ];
  return [...table(rows), '', interopCounts(coverage)].join('\n');
}

/** The counts line: scenarios covered by a case of ours, and those with a reason instead. */
export function interopCounts(coverage: readonly ScenarioCoverage[]): string {
  const covered = coverage.filter((c) => c.cases.length > 0).length;
  return `Interop scenarios: ${counted(coverage.length, 'scenario')}, ${covered} covered by cases of ours, ${coverage.length - covered} with the reason none does.`;
}
