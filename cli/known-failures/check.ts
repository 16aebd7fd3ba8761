import { UsageError } from '../io.js';
import { globHint } from '../selection/select.js';
import { selects, type SelectableCase } from '../selection/selector.js';
import type { KnownFailures } from './parse.js';

/**
 * Refuses, before anything runs, a baseline line that matches no case of the suite: a typo in a
 * pattern would otherwise tolerate nothing and be found only after the whole run. Lines are
 * judged against every case the suite has, not only the selected ones, so one baseline serves
 * `--only` reruns and every shard alike.
 */
export function checkKnownFailuresMatch(
  baseline: KnownFailures,
  suite: readonly SelectableCase[],
  role: 'harness' | 'backend',
): void {
  const unmatched = baseline.entries.find((e) => !suite.some((c) => selects(e.selector, c)));
  if (unmatched === undefined) return;
  throw new UsageError(
    `the known-failures file "${baseline.file}" line ${unmatched.line}: ${JSON.stringify(unmatched.pattern)} matches no case of the ${role} suite${globHint(unmatched.pattern, suite)}; fix the pattern or remove the line (\`ahp-conformance list\` shows the case names).`,
  );
}
