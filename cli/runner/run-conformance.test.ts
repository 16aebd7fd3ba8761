import { describe, expect, it } from 'vitest';
import {
  NOT_RUN_AFTER_STOP,
  NOT_RUN_INTERRUPTED,
  runConformance,
  sortLongestFirst,
} from './run-conformance.js';

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

describe('runConformance stops at once', () => {
  const fixture = (name: string) => `cli/runner/test-fixtures/${name}.conformance.ts`;
  /** Far below the long case's wait: a vitest start, a stop and the teardown on a loaded machine. */
  const STOPS_WITHIN_MS = 20_000;

  it(
    'when the target stopped: a case still running elsewhere is not waited for',
    { timeout: 60_000 },
    async () => {
      const started = performance.now();
      const run = await runConformance({
        include: [fixture('target-stops'), fixture('waits-long')],
        provide: {},
        maxWorkers: 2,
      });
      expect(performance.now() - started).toBeLessThan(STOPS_WITHIN_MS);
      expect(run.stopped?.message).toBe('the fixture target stopped answering');
      expect(run.cases.find((c) => c.name === 'AHP-FAIL-002/fixture/waits-long')).toMatchObject({
        status: 'skipped',
        note: NOT_RUN_AFTER_STOP,
      });
    },
  );

  it('when interrupted: what had not finished is reported not run', { timeout: 60_000 }, async () => {
    const controller = new AbortController();
    const started = performance.now();
    const run = await runConformance({
      include: [fixture('waits-long')],
      provide: {},
      signal: controller.signal,
      // Once the quick case passed, the long one runs: that is when the signal comes.
      onCase: () => setTimeout(() => controller.abort(), 200),
    });
    expect(performance.now() - started).toBeLessThan(STOPS_WITHIN_MS);
    expect(run.interrupted).toBe(true);
    expect(run.runErrors).toEqual([]);
    expect(run.cases).toMatchObject([
      { name: 'AHP-FAIL-001/fixture/quick', status: 'pass' },
      { name: 'AHP-FAIL-002/fixture/waits-long', status: 'skipped', note: NOT_RUN_INTERRUPTED },
    ]);
  });
});
