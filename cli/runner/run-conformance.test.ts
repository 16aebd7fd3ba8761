import { describe, expect, it } from 'vitest';
import { sortLongestFirst } from './run-conformance.js';

describe('sortLongestFirst', () => {
  const files = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ moduleId: `/s/${id}.conformance.ts` }));
  const ms: Record<string, number> = { a: 1200, b: 30_000, d: 1200 };
  const ids = (sorted: { moduleId: string }[]) => sorted.map((f) => f.moduleId.slice(3, 4));

  it('puts files without a duration first, then the longest, ties by path', () => {
    const sorted = sortLongestFirst(files, (f) => ms[f.moduleId.slice(3, 4)] ?? Number.POSITIVE_INFINITY);
    expect(ids(sorted)).toEqual(['c', 'e', 'b', 'a', 'd']);
  });

  it('does not depend on the order it is given', () => {
    const duration = (f: { moduleId: string }) => ms[f.moduleId.slice(3, 4)] ?? Number.POSITIVE_INFINITY;
    expect(ids(sortLongestFirst([...files].reverse(), duration))).toEqual(
      ids(sortLongestFirst(files, duration)),
    );
  });
});
