import { createHash } from 'node:crypto';
import type { ShardSpec } from './plan.js';

/** What a partial report (a `--shard` run's) records about its shard, for `merge`. */
export interface ShardRecord {
  index: number;
  count: number;
  /** The names of the selected cases this shard ran. */
  cases: string[];
  /** How many cases the whole selection holds, over every shard. */
  selected: number;
  /** A digest of the selected case names: equal in every shard of one run. */
  selection: string;
  /** What the split was balanced by. */
  balancedBy: string;
}

/** A digest of a set of case names, independent of their order. */
export function selectionDigest(names: readonly string[]): string {
  const hash = createHash('sha256');
  for (const name of [...new Set(names)].sort()) hash.update(`${name}\n`);
  return `sha256:${hash.digest('hex').slice(0, 32)}`;
}

/** The record of one shard of a selection. */
export function shardRecord(
  shard: ShardSpec,
  own: readonly string[],
  selected: readonly string[],
  balancedBy: string,
): ShardRecord {
  return {
    index: shard.index,
    count: shard.count,
    cases: [...own],
    selected: selected.length,
    selection: selectionDigest(selected),
    balancedBy,
  };
}
