import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyKnownFailures } from '../known-failures/apply.js';
import { parseKnownFailures, type KnownFailures } from '../known-failures/parse.js';
import { buildReport, type Report } from '../report/report.js';
import { CALL_ID, LATE_REPLY } from '../report/test-support/sample-report.js';
import type { CaseResult } from '../runner/case-result.js';
import { run } from '../run.js';
import { shardRecord } from '../shard/record.js';
import { fakeIo } from '../test-support/fake-io.js';
import { checkSchema } from '../report/test-support/json-schema.js';

const schema = JSON.parse(
  readFileSync(new URL('../report/report.schema.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;

function result(name: string, status: CaseResult['status'], over: Partial<CaseResult> = {}): CaseResult {
  return {
    name,
    file: 'suites/harness/families/x.conformance.ts',
    requirements: [name.split('/')[0] as string],
    level: 'MUST',
    transports: ['http'],
    profiles: ['base'],
    status,
    durationMs: 10,
    errors: status === 'fail' ? ['expected deny, got continue'] : [],
    ...over,
  };
}

/** The cases of one run: a failure (tolerated by the baseline), passes, a SHOULD failure, one left out by --skip. */
const SELECTED = [
  result('AHP-CORE-004/a', 'fail'),
  result('AHP-FAIL-001/b', 'pass'),
  result('AHP-FAIL-002/c', 'pass'),
  result('AHPX-SYN-002/d', 'fail', { level: 'SHOULD' }),
];
const LEFT_OUT = result('AHPX-SYN-001/e', 'skipped', { note: 'not selected (--only/--skip)' });
const SPLIT = [['AHP-CORE-004/a', 'AHPX-SYN-002/d'], ['AHP-FAIL-001/b'], ['AHP-FAIL-002/c']];
const BASELINE = 'AHP-CORE-004/a # tracked\n';

type Part = Report & { shard: NonNullable<Report['shard']> };

function knownFailures(text: string): KnownFailures {
  const parsed = parseKnownFailures(text, 'kf.txt');
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.baseline;
}

/**
 * The partial report of shard `index` of a run, as a --shard run writes it: its own cases, the
 * baseline applied to them with the other shards' cases as elsewhere.
 */
function partial(
  index: number,
  over: Partial<Report> = {},
  split: string[][] = SPLIT,
  selected: CaseResult[] = SELECTED,
  baseline = BASELINE,
): Part {
  const own = split[index - 1] ?? [];
  const applied = applyKnownFailures(
    selected.filter((c) => own.includes(c.name)),
    knownFailures(baseline),
    selected.filter((c) => !own.includes(c.name)),
  );
  const report = buildReport({
    version: '0.1.0',
    role: 'harness',
    target: { kind: 'driver', command: ['node', 'driver.mjs'] },
    claim: { role: 'harness', bindings: ['http'], profiles: ['base'] },
    seed: 42,
    startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
    durationMs: 1000,
    cases: [...applied.cases, LEFT_OUT],
    runErrors: [],
    options: {
      only: [],
      skip: ['AHPX-SYN-001'],
      seed: 42,
      runs: 50,
      timeoutScale: 1,
      repeat: 1,
      strict: false,
      reporters: ['json'],
      knownFailures: 'kf.txt',
      knownFailuresSha256: 'a'.repeat(64),
    },
    baseline: applied.summary,
    shard: shardRecord(
      { index, count: split.length },
      own,
      selected.map((c) => c.name),
      'case count',
    ),
  });
  return { ...report, ...over } as Part;
}

function write(dir: string, name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

async function merge(files: string[], extra: string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), 'ahp-merge-'));
  const f = fakeIo(['merge', ...files, '--output-dir', join(dir, 'out'), ...extra], { cwd: dir });
  const code = await run(f.io);
  return { code, out: f.out(), err: f.err(), dir: join(dir, 'out') };
}

function shardFiles(parts: unknown[]): { dir: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'ahp-shards-'));
  return { dir, files: parts.map((p, i) => write(dir, `shard-${i + 1}.json`, p)) };
}

const readReport = (dir: string) => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;

describe('ahp-conformance merge', () => {
  it('joins the shards into the report the unsharded run would have written, in every format', async () => {
    const { files } = shardFiles([partial(1), partial(2), partial(3)]);
    const { code, out, err, dir } = await merge(files);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toMatch(/3 shards of one harness run/);
    const merged = readReport(dir);
    expect(checkSchema(merged, schema)).toEqual([]);
    expect(checkSchema(JSON.parse(JSON.stringify(partial(1))), schema)).toEqual([]);
    expect(merged.shard).toBeUndefined();
    expect(merged.summary).toEqual({
      passed: 2,
      failed: 0,
      skipped: 1,
      untested: 0,
      blocked: 0,
      knownFailures: 1,
      warnings: 1,
    });
    const names = merged.requirements.flatMap((r) => r.cases.map((c) => c.name));
    expect(names.sort()).toEqual([...SELECTED, LEFT_OUT].map((c) => c.name).sort());
    expect(merged.baseline).toMatchObject({ file: 'kf.txt', tolerated: 1, stale: [], narrow: [] });
    expect(merged.problems.map((p) => [p.id, p.requirement, p.knownFailure?.line])).toEqual([
      ['p1', 'AHP-CORE-004', 1],
      ['p2', 'AHPX-SYN-002', undefined],
    ]);
    // A requirement whose only failure is at SHOULD level warns, in the merge as in a run.
    expect(merged.requirements.find((r) => r.id === 'AHPX-SYN-002')?.status).toBe('warn');
    expect(merged.durationMs).toBe(3000);
    for (const file of ['junit.xml', 'report.html', 'report.md'])
      expect(readFileSync(join(dir, file), 'utf8')).not.toBe('');
  });

  it('exits 1 when a shard failed', async () => {
    const failing = partial(2);
    failing.requirements = buildReport({
      ...failing,
      version: failing.tool.version,
      cases: [result('AHP-FAIL-001/b', 'fail'), LEFT_OUT],
    }).requirements;
    const one = shardFiles([partial(1), failing, partial(3)]);
    const failed = await merge(one.files, ['--reporter', 'json']);
    expect(failed.code).toBe(1);
    const report = readReport(failed.dir);
    expect(report.requirements.find((r) => r.id === 'AHP-FAIL-001')?.status).toBe('fail');
  });

  it('judges a known-failures line over every shard: stale only when no shard has a failure it matches', async () => {
    // "AHP-FAIL-00*" matches a passing case in shard 2 and one in shard 3: neither shard can call
    // it stale alone (the other might fail), the merge does.
    const stale = 'AHP-CORE-004/a # tracked\nAHP-FAIL-00* # flaky deadlines\n';
    const shards = [1, 2, 3].map((i) => partial(i, {}, SPLIT, SELECTED, stale));
    expect(shards.map((p) => p.baseline?.stale)).toEqual([[], [], []]);
    const out = await merge(shardFiles(shards).files, ['--reporter', 'json']);
    expect(out.code).toBe(1);
    expect(readReport(out.dir).baseline?.stale).toEqual([
      { pattern: 'AHP-FAIL-00*', line: 2, passing: ['AHP-FAIL-001/b', 'AHP-FAIL-002/c'] },
    ]);
    // With a failure in shard 3, the same line holds, and the merge says to narrow it.
    const cases = SELECTED.map((c) => (c.name === 'AHP-FAIL-002/c' ? result(c.name, 'fail') : c));
    const held = [1, 2, 3].map((i) => partial(i, {}, SPLIT, cases, stale));
    const narrow = await merge(shardFiles(held).files, ['--reporter', 'json']);
    expect(narrow.code).toBe(0);
    expect(readReport(narrow.dir).baseline).toMatchObject({
      stale: [],
      narrow: [{ pattern: 'AHP-FAIL-00*', line: 2, passing: ['AHP-FAIL-001/b'] }],
    });
  });

  it('regroups problems across shards: one defect seen in two shards is one problem, its blocked cases under it', async () => {
    const cases = [
      result('AHP-TB-001/call-id', 'fail', { findings: [CALL_ID], errors: [`- ${CALL_ID.message}`] }),
      result('AHP-CORE-004/retry', 'fail', { findings: [CALL_ID, LATE_REPLY], errors: ['- x'] }),
      result('AHP-FAIL-001/blocked', 'blocked', { blockedBy: CALL_ID, note: CALL_ID.message }),
    ];
    const split = [['AHP-TB-001/call-id'], ['AHP-CORE-004/retry', 'AHP-FAIL-001/blocked']];
    const parts = [1, 2].map((i) => partial(i, {}, split, cases, 'AHP-FAIL-002 # unrelated\n'));
    expect(parts[1]?.problems.map((p) => p.id)).toEqual(['p1']);
    const out = await merge(shardFiles(parts).files, ['--reporter', 'json']);
    expect(out.code).toBe(1);
    const merged = readReport(out.dir);
    expect(checkSchema(merged, schema)).toEqual([]);
    expect(merged.problems).toMatchObject([
      {
        id: 'p1',
        requirement: 'AHP-TB-001',
        cases: ['AHP-TB-001/call-id', 'AHP-CORE-004/retry', 'AHP-FAIL-001/blocked'],
        failing: 2,
      },
    ]);
    expect(merged.summary.blocked).toBe(1);
    const blocked = merged.requirements
      .flatMap((r) => r.cases)
      .find((c) => c.name === 'AHP-FAIL-001/blocked');
    expect(blocked).toMatchObject({ status: 'blocked', blockedBy: 'p1' });
    // A line for the root problem covers it in every shard: the merged run passes.
    const covered = [1, 2].map((i) => partial(i, {}, split, cases, 'AHP-TB-001 # the call id bug\n'));
    const ok = await merge(shardFiles(covered).files, ['--reporter', 'json']);
    expect(ok.code).toBe(0);
    expect(readReport(ok.dir).problems[0]?.knownFailure).toMatchObject({ line: 1, pattern: 'AHP-TB-001' });
  });

  const refusals: [string, () => unknown[], RegExp][] = [
    [
      'different versions',
      () => [partial(1), partial(2, { tool: { name: 'ahp-conformance', version: '0.2.0' } }), partial(3)],
      /written by ahp-conformance 0\.2\.0 .* by 0\.1\.0; run every shard with one version\./,
    ],
    [
      'different targets',
      () => [partial(1), partial(2, { target: { kind: 'driver', command: ['other'] } }), partial(3)],
      /tested different targets/,
    ],
    [
      'different seeds',
      () => [partial(1), partial(2, { seed: 7 }), partial(3)],
      /ran with seed 7 .* with seed 42; run every shard with the same --seed\./,
    ],
    [
      'different selections',
      () => [
        partial(1),
        partial(2, { options: { ...(partial(2).options as object), skip: [] } }),
        partial(3),
      ],
      /selected different cases/,
    ],
    [
      'different run options',
      () => [
        partial(1),
        partial(2, { options: { ...(partial(2).options as object), timeoutScale: 2 } }),
        partial(3),
      ],
      /ran with --timeout-scale 2 and .* with 1; run every shard with the same options\./,
    ],
    [
      'different shard counts',
      () => [partial(1), partial(2, {}, [...SPLIT, []]), partial(3)],
      /is shard 2\/4 but .* is shard 1\/3/,
    ],
    [
      'a duplicated shard',
      () => [partial(1), partial(2), partial(2)],
      /are both shard 2\/3; give each shard's report once\./,
    ],
    [
      'a missing shard',
      () => [partial(1), partial(3)],
      /^ahp-conformance merge: shard 2\/3 is missing; give the report\.json of every shard from 1\/3 to 3\/3\.$/,
    ],
    [
      'overlapping cases',
      () => [
        partial(1),
        partial(2, {}, [SPLIT[0]!, ['AHP-FAIL-001/b', 'AHPX-SYN-002/d'], SPLIT[2]!]),
        partial(3),
      ],
      /case "AHPX-SYN-002\/d" is in both shard 1\/3 .* and shard 2\/3/,
    ],
    [
      'a report of an unsharded run',
      () => [partial(1), { ...partial(2), shard: undefined }, partial(3)],
      /is the report of a run without --shard/,
    ],
    [
      'a shard whose run failed before it knew its share',
      () => [
        partial(1),
        {
          ...partial(2),
          shard: undefined,
          runErrors: ['Error: cannot collect x.conformance.ts: SyntaxError.\n    at parse (x.ts:1:1)'],
        },
        partial(3),
      ],
      /shard-2\.json" records no shard because the run that wrote it failed \(Error: cannot collect x\.conformance\.ts: SyntaxError\); fix that and rerun the shard\.$/,
    ],
    [
      'shards that read different known-failures files under one path',
      () => [
        partial(1),
        partial(2, { options: { ...(partial(2).options as object), knownFailuresSha256: 'b'.repeat(64) } }),
        partial(3),
      ],
      /and "[^"]*shard-1\.json" read different contents from the known-failures file "kf\.txt"; run every shard with the same file\.$/,
    ],
    [
      'a file that is not JSON',
      () => [partial(1), 'not json {', partial(3)],
      /"[^"]*shard-2\.json" is not JSON; give the report\.json that each `--shard <i>\/<n>` run wrote\./,
    ],
    [
      'JSON that is not a report',
      () => [partial(1), { hello: 'world' }, partial(3)],
      /shard-2\.json" is not an ahp-conformance report \(tool: /,
    ],
  ];

  it.each(refusals)('refuses %s with exit 2 and one sentence', async (_what, parts, message) => {
    const { files, dir } = shardFiles(parts());
    const { code, err, out } = await merge(files);
    expect(code).toBe(2);
    const lines = err.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(lines[0]).toMatch(/^ahp-conformance merge: [^\n]+\.$/);
    expect(out).toBe('');
    expect(() => readFileSync(join(dir, 'out', 'report.json'))).toThrow();
  });

  it('refuses a missing file, no file at all and an unknown reporter with exit 2', async () => {
    const missing = await merge(['nope/report.json']);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/cannot read the report "nope\/report\.json" \(ENOENT\)/);
    const none = fakeIo(['merge']);
    expect(await run(none.io)).toBe(2);
    expect(none.err()).toMatch(/give at least 1 partial report/);
    const { files } = shardFiles([partial(1)]);
    const reporter = await merge(files, ['--reporter', 'pdf']);
    expect(reporter.code).toBe(2);
    expect(reporter.err).toMatch(/--reporter must be one of console, json, junit, html, markdown, not "pdf"/);
  });
});
