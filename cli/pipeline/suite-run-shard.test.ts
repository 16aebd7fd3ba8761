import { describe, expect, it } from 'vitest';
import { checkShards } from '../report/merge-check.js';
import type { PartialReport } from '../report/merge-input.js';
import { mergeReports } from '../report/merge-reports.js';
import type { Report } from '../report/report.js';
import { runSuite, type SuiteRunPlan } from './suite-run.js';
import { fixturePlan, SLOW } from './test-support/fixture-plan.js';

// The flaky fixture counts its runs: left out, so every run sees the same verdicts.
const FIXED = ['--seed', '5', '--known-failures', 'kf.txt', '--skip', 'AHP-FAIL-002'];

async function plan(args: string[], baseline?: string): Promise<SuiteRunPlan> {
  // Fixture cases move one by one, so that 3 shards of 5 cases are each non-empty.
  return { ...(await fixturePlan([...FIXED, ...args], baseline)), shardUnit: 'case' };
}

const partial = (report: Report, i: number): PartialReport =>
  ({ shown: `shard-${i}.json`, report: JSON.parse(JSON.stringify(report)) }) as PartialReport;

const verdicts = (report: Report) =>
  Object.fromEntries(report.requirements.map((r) => [r.id, r.status] as const));
const caseStatuses = (report: Report) =>
  Object.fromEntries(report.requirements.flatMap((r) => r.cases.map((c) => [c.name, c.status] as const)));

describe('runSuite --shard', () => {
  it('splits the selection into disjoint shards whose merge is the unsharded run', SLOW, async () => {
    const whole = await runSuite(await plan([]));
    const shards = [];
    const planned: string[] = [];
    for (let i = 1; i <= 3; i++) {
      const p = await plan(['--shard', `${i}/3`]);
      shards.push(
        await runSuite({
          ...p,
          onShardPlanned: (s, n, of) => planned.push(`${s.index}/${s.count} ${n}/${of}`),
        }),
      );
    }
    expect(planned).toEqual(['1/3 2/5', '2/3 2/5', '3/3 1/5']);
    const owned = shards.flatMap((s) => s.report.shard?.cases ?? []);
    expect(new Set(owned).size).toBe(owned.length);
    expect(owned.sort()).toEqual(
      Object.entries(caseStatuses(whole.report))
        .filter(([, status]) => status !== 'skipped')
        .map(([name]) => name)
        .sort(),
    );
    // Shard 3 holds neither listed case: nothing to tolerate, nothing stale, so its job is green.
    const third = shards[2]?.report;
    expect(third?.shard?.cases).toEqual(['AHP-HTTP-001/fixture/untested']);
    expect(third?.baseline).toMatchObject({ tolerated: 0, stale: [], narrow: [] });
    expect(shards[2]?.exitCode).toBe(0);
    const merged = mergeReports(checkShards(shards.map((s, i) => partial(s.report, i + 1))));
    expect(verdicts(merged.report)).toEqual(verdicts(whole.report));
    expect(caseStatuses(merged.report)).toEqual(caseStatuses(whole.report));
    expect(merged.report.summary).toEqual(whole.report.summary);
    expect(merged.report.baseline).toEqual(whole.report.baseline);
    expect(merged.report.baseline).toMatchObject({ tolerated: 1, stale: [{ pattern: 'AHP-FAIL-001' }] });
    expect(merged.report.problems).toEqual(whole.report.problems);
    expect(merged.exitCode).toBe(whole.exitCode);
    expect(merged.exitCode).toBe(1);
  });

  it('does not fail a shard on an entry that matches only another shard’s cases', SLOW, async () => {
    const p = await plan(['--shard', '3/3'], 'AHP-CORE-004/fixture/fails # identity bug, tracked\n');
    const { report, exitCode } = await runSuite(p);
    expect(report.baseline).toMatchObject({ file: 'kf.txt', tolerated: 0, stale: [], narrow: [] });
    expect(exitCode).toBe(0);
  });
});
