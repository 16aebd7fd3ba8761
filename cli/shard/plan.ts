/**
 * The split of a run into shards (`--shard <i>/<n>`): every shard of one run computes the same
 * split from the same inputs (the selected cases, the recorded durations, n), never from the seed
 * or the clock, so the matrix jobs of a CI run hold disjoint case sets that add up to the
 * selection.
 */

/** Shard i of n, 1-based. */
export interface ShardSpec {
  index: number;
  count: number;
}

/** What the split reads of a case. */
export interface ShardableCase {
  name: string;
  file: string;
}

/**
 * What moves between shards as a whole: a suite file, when each file costs a driver and mocks
 * and its cases share them (the harness suite); a single case, when the suite is one file of
 * independent probes (the backend suite).
 */
export type ShardUnit = 'file' | 'case';

/** Recorded case durations in ms, by case name. */
export type CaseDurations = ReadonlyMap<string, number>;

/** The written form of a shard, `2/3`. */
export function shardLabel(shard: ShardSpec): string {
  return `${shard.index}/${shard.count}`;
}

/** The line a shard prints once it knows its share: `shard 2/3: 74 of 223 cases`. */
export function shardProgressLine(shard: ShardSpec, cases: number, selected: number): string {
  return `shard ${shardLabel(shard)}: ${cases} of ${selected} case${selected === 1 ? '' : 's'}`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Splits `cases` into `count` shards, balanced by duration: units (files or cases) longest first,
 * each to the shard with the least recorded time so far (lowest index on ties); a case with no
 * recorded duration weighs the median of those recorded (all weigh the same when none is, which
 * balances by case count). Units are ordered by weight then name, so the split does not depend on
 * the order the cases were collected in. Each shard keeps its cases in their given order; a
 * shard may be empty when there are fewer units than shards.
 */
export function splitIntoShards<T extends ShardableCase>(
  cases: readonly T[],
  count: number,
  unit: ShardUnit,
  durations: CaseDurations,
): T[][] {
  const known = cases.map((c) => durations.get(c.name)).filter((d): d is number => d !== undefined);
  const fallback = median(known);
  const units = new Map<string, { key: string; weight: number; members: Set<string> }>();
  const keyOf = (c: T) => (unit === 'file' ? c.file : `${c.file}\0${c.name}`);
  for (const c of cases) {
    const key = keyOf(c);
    const entry = units.get(key) ?? { key, weight: 0, members: new Set<string>() };
    entry.weight += durations.get(c.name) ?? fallback;
    entry.members.add(c.name);
    units.set(key, entry);
  }
  const ordered = [...units.values()].sort((a, b) =>
    a.weight !== b.weight ? b.weight - a.weight : a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
  );
  const loads = Array.from({ length: count }, () => 0);
  const shardOfUnit = new Map<string, number>();
  for (const u of ordered) {
    let best = 0;
    for (let i = 1; i < count; i++) if ((loads[i] as number) < (loads[best] as number)) best = i;
    loads[best] = (loads[best] as number) + u.weight;
    shardOfUnit.set(u.key, best);
  }
  const shards: T[][] = Array.from({ length: count }, () => []);
  for (const c of cases) shards[shardOfUnit.get(keyOf(c)) as number]?.push(c);
  return shards;
}

/** The cases of one shard. */
export function casesOfShard<T extends ShardableCase>(
  cases: readonly T[],
  shard: ShardSpec,
  unit: ShardUnit,
  durations: CaseDurations,
): T[] {
  return splitIntoShards(cases, shard.count, unit, durations)[shard.index - 1] ?? [];
}
