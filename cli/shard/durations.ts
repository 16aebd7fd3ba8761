import { readFile } from 'node:fs/promises';
import type { CaseDurations } from './plan.js';

/**
 * The case durations the split balances by, shipped with the package so that every shard of a
 * CI matrix, on whatever runner, reads the same numbers (a duration measured on the runner itself
 * would differ from job to job and so would the split). Recorded from a full run of the bundled
 * reference harness by `scripts/record-durations.ts`; a harness under test takes other times, but
 * the proportions between cases (deadlines, budgets, process spawns) are the suite's own.
 * The backend suite ships none: its times are the backend's, so its shards balance by case count.
 */
export const DURATIONS_FILES = { harness: 'harness-durations.json' } as const;

/** The shipped file's shape. */
export interface DurationsFile {
  about: string;
  version: string;
  cases: Record<string, number>;
}

/** The recorded durations of a role's cases (empty when the role ships none). */
export async function recordedDurations(role: 'harness' | 'backend'): Promise<CaseDurations> {
  if (role !== 'harness') return new Map();
  const text = await readFile(new URL(`./${DURATIONS_FILES.harness}`, import.meta.url), 'utf8');
  const parsed = JSON.parse(text) as DurationsFile;
  return new Map(Object.entries(parsed.cases));
}

/** What the report says the split was balanced by. */
export function durationsSource(role: 'harness' | 'backend'): string {
  return role === 'harness'
    ? `recorded durations (cli/shard/${DURATIONS_FILES.harness})`
    : 'case count (no recorded durations)';
}
