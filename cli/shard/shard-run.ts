import type { CollectedCase } from '../selection/collect.js';
import { durationsSource, recordedDurations } from './durations.js';
import { casesOfShard, type ShardSpec, type ShardUnit } from './plan.js';
import { shardRecord, type ShardRecord } from './record.js';

/** What one shard of a run runs and reports. */
export interface ShardRun {
  /** The selected cases of this shard, in collection order. */
  own: CollectedCase[];
  /**
   * The cases its report lists: its own, plus the cases the selection left out (every shard
   * lists those as skipped, as an unsharded run would); the other shards' cases are theirs.
   */
  reported: CollectedCase[];
  record: ShardRecord;
}

/** Plans one shard: the split of the selection, by recorded durations where the role has them. */
export async function planShardRun(
  role: 'harness' | 'backend',
  universe: readonly CollectedCase[],
  selected: readonly CollectedCase[],
  shard: ShardSpec,
  unit: ShardUnit,
): Promise<ShardRun> {
  const durations = await recordedDurations(role);
  const own = casesOfShard(selected, shard, unit, durations);
  const ownNames = new Set(own.map((c) => c.name));
  const selectedNames = new Set(selected.map((c) => c.name));
  const reported = universe.filter((c) => ownNames.has(c.name) || !selectedNames.has(c.name));
  const record = shardRecord(
    shard,
    own.map((c) => c.name),
    [...selectedNames],
    durationsSource(role),
  );
  return { own, reported, record };
}
