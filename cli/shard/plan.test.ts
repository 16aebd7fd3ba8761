import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { casesOfShard, shardProgressLine, splitIntoShards } from './plan.js';
import { selectionDigest } from './record.js';

const cases = [
  { name: 'A/1', file: 'a.ts' },
  { name: 'A/2', file: 'a.ts' },
  { name: 'B/1', file: 'b.ts' },
  { name: 'C/1', file: 'c.ts' },
  { name: 'C/2', file: 'c.ts' },
  { name: 'D/1', file: 'd.ts' },
];
const durations = new Map([
  ['A/1', 5000],
  ['A/2', 5000],
  ['B/1', 7000],
  ['C/1', 1000],
  ['C/2', 1000],
  ['D/1', 2000],
]);
const names = (shards: { name: string }[][]) => shards.map((s) => s.map((c) => c.name));

describe('splitIntoShards', () => {
  it('keeps each file whole and balances the files by their recorded time, longest first', () => {
    // a.ts 10 s -> 1, b.ts 7 s -> 2, d.ts 2 s -> 3, c.ts 2 s -> 3 (d then c: equal, by name c first).
    expect(names(splitIntoShards(cases, 3, 'file', durations))).toEqual([
      ['A/1', 'A/2'],
      ['B/1'],
      ['C/1', 'C/2', 'D/1'],
    ]);
  });

  it('moves single cases when the unit is the case', () => {
    // B/1 7 s -> 1, A/1 5 s -> 2, A/2 -> 2 (5 < 7), D/1 -> 1, C/1 -> 1, C/2 -> 1 (tie: lowest index).
    expect(names(splitIntoShards(cases, 2, 'case', durations))).toEqual([
      ['B/1', 'C/1', 'C/2', 'D/1'],
      ['A/1', 'A/2'],
    ]);
  });

  it('balances by case count when no duration is recorded, and leaves a shard empty past the units', () => {
    const shards = splitIntoShards(cases, 3, 'case', new Map());
    expect(shards.map((s) => s.length)).toEqual([2, 2, 2]);
    expect(names(splitIntoShards(cases, 6, 'file', new Map())).filter((s) => s.length === 0)).toHaveLength(2);
  });

  it('is a partition that depends on neither the collection order nor anything but its inputs', () => {
    const arb = fc.record({
      list: fc.uniqueArray(
        fc.record({
          name: fc.stringMatching(/^[A-Z]{1,3}\/[a-z]{1,3}$/),
          file: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
        }),
        { selector: (c) => c.name, maxLength: 40 },
      ),
      count: fc.integer({ min: 1, max: 7 }),
      unit: fc.constantFrom('file' as const, 'case' as const),
      order: fc.array(fc.nat()),
    });
    fc.assert(
      fc.property(arb, ({ list, count, unit, order }) => {
        const weights = new Map(list.map((c, i) => [c.name, (i * 37) % 11] as const));
        const shuffled = [...list].sort(
          (a, b) => (order[list.indexOf(a)] ?? 0) - (order[list.indexOf(b)] ?? 0),
        );
        const one = splitIntoShards(list, count, unit, weights);
        const two = splitIntoShards(shuffled, count, unit, weights);
        const asSets = (s: { name: string }[][]) => s.map((x) => x.map((c) => c.name).sort());
        expect(asSets(two)).toEqual(asSets(one));
        const all = one.flat().map((c) => c.name);
        expect(all.sort()).toEqual(list.map((c) => c.name).sort());
        if (unit === 'file') {
          for (const file of new Set(list.map((c) => c.file))) {
            expect(one.filter((s) => s.some((c) => c.file === file))).toHaveLength(1);
          }
        }
        for (let i = 1; i <= count; i++) {
          expect(casesOfShard(list, { index: i, count }, unit, weights)).toEqual(one[i - 1]);
        }
      }),
    );
  });
});

describe('shard records', () => {
  it('say which shard and how many of the selection it holds', () => {
    expect(shardProgressLine({ index: 2, count: 3 }, 74, 223)).toBe('shard 2/3: 74 of 223 cases');
  });

  it('digest a selection whatever its order', () => {
    expect(selectionDigest(['b', 'a'])).toBe(selectionDigest(['a', 'b']));
    expect(selectionDigest(['a'])).not.toBe(selectionDigest(['a', 'b']));
  });
});
