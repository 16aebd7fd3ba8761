// A sharded run as a CI matrix runs it, through the bin: the harness suite against the bundled
// reference harness as 3 shards and their merge, beside the same run unsharded; then a broken
// twin on a selection across 3 suite files, so the merge of a failing run is shown to fail.
// Several full runs of the suite: kept out of `npm test`, in the e2e step of `.ci/run`.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBundles } from '../cli/bundles.js';
import type { Report } from '../cli/report/report.js';
import { bundleTwins } from '../fixtures/harnesses/lib/bundle.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'ahp-conformance.mjs');
const work = mkdtempSync(join(tmpdir(), 'ahp-shard-e2e-'));
const SHARDS = 3;

interface Run {
  exitCode: number;
  stdout: string;
  report: Report;
}

async function cli(args: string[], outputDir: string): Promise<Run> {
  // Options before the driver command: what follows "--" is the driver's.
  const [command, ...rest] = args;
  const argv = [BIN, command as string, '--output-dir', outputDir, ...rest];
  const result = await execa(process.execPath, argv, {
    cwd: ROOT,
    reject: false,
  });
  if ((result.exitCode !== 0 && result.exitCode !== 1) || !existsSync(join(outputDir, 'report.json'))) {
    throw new Error(`ahp-conformance ${args.join(' ')} exited ${result.exitCode}: ${result.stderr}`);
  }
  const report = JSON.parse(readFileSync(join(outputDir, 'report.json'), 'utf8')) as Report;
  return { exitCode: result.exitCode ?? -1, stdout: result.stdout, report };
}

const cases = (report: Report) => {
  const all = new Map<string, string>();
  for (const r of report.requirements) for (const c of r.cases) all.set(c.name, c.status);
  return all;
};
const ran = (report: Report) =>
  [...cases(report)].filter(([, status]) => status !== 'skipped').map(([name]) => name);
const verdicts = (report: Report) => Object.fromEntries(report.requirements.map((r) => [r.id, r.status]));

/** The unsharded run, each shard run one after the other (so that they load the machine alike), and the merge. */
async function shardedAndWhole(name: string, args: string[], driver: string[]) {
  const tail = driver.length > 0 ? ['--', ...driver] : [];
  const whole = await cli(['harness', ...args, '--reporter', 'json', ...tail], join(work, name, 'whole'));
  const shards: Run[] = [];
  for (let i = 1; i <= SHARDS; i++) {
    shards.push(
      await cli(['harness', ...args, '--shard', `${i}/${SHARDS}`, ...tail], join(work, name, `shard-${i}`)),
    );
  }
  const files = shards.map((_, i) => join(work, name, `shard-${i + 1}`, 'report.json'));
  const merged = await cli(['merge', ...files, '--reporter', 'json,markdown'], join(work, name, 'merged'));
  return { whole, shards, merged };
}

function expectSameRun(outcome: Awaited<ReturnType<typeof shardedAndWhole>>): void {
  const { whole, shards, merged } = outcome;
  const owned = shards.flatMap((s) => s.report.shard?.cases ?? []);
  expect(new Set(owned).size).toBe(owned.length);
  expect([...owned].sort()).toEqual(ran(whole.report).sort());
  for (const [i, s] of shards.entries()) {
    expect(s.stdout).toContain(
      `shard ${i + 1}/${SHARDS}: ${s.report.shard?.cases.length} of ${owned.length} cases`,
    );
  }
  expect(merged.report.shard).toBeUndefined();
  expect(verdicts(merged.report)).toEqual(verdicts(whole.report));
  expect(Object.fromEntries(cases(merged.report))).toEqual(Object.fromEntries(cases(whole.report)));
  expect(merged.report.summary).toEqual(whole.report.summary);
  expect(merged.exitCode).toBe(whole.exitCode);
}

beforeAll(async () => {
  await ensureBundles();
});

describe('--shard and merge, end to end', () => {
  // Four runs of the whole suite's worth (about 3 min idle on 2 cores, 6 min under load).
  it('3 shards of the reference harness merge into the unsharded run', { timeout: 900_000 }, async () => {
    const outcome = await shardedAndWhole('reference', ['--seed', '11'], []);
    expectSameRun(outcome);
    expect(outcome.whole.report.summary.failed).toBe(0);
    expect(outcome.merged.exitCode).toBe(0);
    // Balanced by the recorded durations: no shard is left empty.
    for (const s of outcome.shards) expect(s.report.shard?.cases.length).toBeGreaterThan(20);
  });

  it('3 shards of a broken twin merge into its failing verdict', async () => {
    const twin = [...(await bundleTwins()), 'claim-missing'];
    // Three suite files, so that each shard holds one of them.
    const only = ['--only', 'AHP-CORE-001', '--only', 'AHPX-SYN-001', '--only', 'AHPX-SHUT-001'];
    const outcome = await shardedAndWhole('twin', ['--seed', '12', ...only], twin);
    expectSameRun(outcome);
    expect(outcome.whole.exitCode).toBe(1);
    expect(verdicts(outcome.merged.report)['AHP-CORE-001']).toBe('fail');
    expect(outcome.merged.exitCode).toBe(1);
    // Only the shard that holds the failing case fails on its own.
    expect(outcome.shards.map((s) => s.exitCode).sort()).toEqual([0, 0, 1]);
    for (const s of outcome.shards) expect(s.report.shard?.cases.length).toBeGreaterThan(0);
  });
});
