/**
 * The known name a typo most likely meant, for messages of every layer ("did you mean --seed?",
 * "did you mean "late-reply"?"): the nearest by edit distance, when it is near enough to be a
 * plausible intent.
 */

/** Levenshtein distance: insertions, deletions and substitutions, one each. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number;
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] as number;
}

/**
 * The known name closest to `typed`, when at most 2 edits (or a quarter of its length, for long
 * names) away; undefined otherwise, since a far guess misleads more than none.
 */
export function closestName(typed: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of known) {
    const d = editDistance(typed, name);
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return bestDistance <= Math.max(2, Math.floor(typed.length / 4)) ? best : undefined;
}
