import { UsageError } from '../io.js';
import { parseSelector, selects, type SelectableCase, type Selector } from './selector.js';

/** `--only` and `--skip` as given (already split into single selectors). */
export interface SelectionRequest {
  only: readonly string[];
  skip: readonly string[];
}

/** Parses the selectors of one flag; the first bad one is a UsageError naming it. */
export function parseSelectors(texts: readonly string[], flag: '--only' | '--skip'): Selector[] {
  return texts.map((text) => {
    const parsed = parseSelector(text);
    if (!parsed.ok) throw new UsageError(`${flag} ${JSON.stringify(text)}: ${parsed.reason}.`);
    return parsed.selector;
  });
}

/**
 * Applies `--only` (any of them) then `--skip` (none of them) to the collected cases. A selector
 * that matches no case is an error rather than a silent no-op: a typo would otherwise run, or skip,
 * nothing and still look green.
 */
export function selectCases<T extends SelectableCase>(cases: readonly T[], request: SelectionRequest): T[] {
  const only = parseSelectors(request.only, '--only');
  const skip = parseSelectors(request.skip, '--skip');
  for (const [flag, selectors] of [
    ['--only', only],
    ['--skip', skip],
  ] as const) {
    const unmatched = selectors.find((s) => !cases.some((c) => selects(s, c)));
    if (unmatched) {
      throw new UsageError(
        `${flag} ${JSON.stringify(unmatched.text)} matches no case${globHint(unmatched.text, cases)}; run \`ahp-conformance list\` to see the case names, requirement IDs and profiles.`,
      );
    }
  }
  const chosen = cases.filter(
    (c) => (only.length === 0 || only.some((s) => selects(s, c))) && !skip.some((s) => selects(s, c)),
  );
  if (chosen.length === 0 && cases.length > 0) {
    throw new UsageError('--only and --skip together leave no case to run; narrow --skip or widen --only.');
  }
  return chosen;
}

/**
 * For a pattern with a `*` that matched nothing: case names are paths, and `*` stops at `/`.
 * Names the `**` form when it would match, else just says how the two differ.
 */
export function globHint(text: string, cases: readonly SelectableCase[]): string {
  if (!/(?<!\*)\*(?!\*)/.test(text)) return '';
  const doubled = text.replace(/\*+/g, '**');
  const parsed = parseSelector(doubled);
  if (parsed.ok && cases.some((c) => selects(parsed.selector, c))) {
    return ` (\`*\` stops at \`/\`; ${JSON.stringify(doubled)} would match)`;
  }
  return ' (`*` stops at `/`; `**` crosses it)';
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A vitest `testNamePattern` that runs exactly the named cases. vitest matches it against the
 * full task name, which joins the file, the suites and the case with spaces where our names
 * (vitest's `fullName`) join suites and case with " > "; so each name is rewritten to that form and
 * anchored at its end and at a space or the start.
 */
export function namePatternFor(names: readonly string[]): string {
  const unique = [...new Set(names.map((n) => n.split(' > ').join(' ')))];
  return `(?:^|\\s)(?:${unique.map(escapeRegex).join('|')})$`;
}
