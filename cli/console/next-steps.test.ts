import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../options/resolve.js';
import type { Report } from '../report/report.js';
import { nextSteps, shellWord } from './next-steps.js';

const report = {
  seed: 1234,
  requirements: [
    { id: 'AHP-FAIL-001', cases: [{ name: 'AHP-FAIL-001/transport:http/ok', status: 'pass' }] },
    { id: 'AHP-FAIL-002', cases: [{ name: 'AHP-FAIL-002/transport:http/policy:fail-open', status: 'fail' }] },
  ],
} as unknown as Report;

/** Splits a printed line back into argv words (bare words and single-quoted ones, as shellWord writes). */
function words(line: string): string[] {
  return [...line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) =>
    m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : (m[2] as string),
  );
}

/** The argv after `npx ahp-conformance harness` of a printed step. */
function argvOf(lines: string[], label: string): string[] {
  const line = lines.find((l) => l.trimStart().startsWith(label)) as string;
  return words(line.slice(line.indexOf('npx'))).slice(3);
}

describe('nextSteps', () => {
  it('says nothing after a run that passed', () => {
    expect(nextSteps(report, { command: 'harness', args: [], files: [], failed: false })).toEqual([]);
  });

  it('gives the report, the replay with the seed, and a rerun of the first failing case', () => {
    const lines = nextSteps(report, {
      command: 'harness',
      args: ['--seed', '9', '--only', 'A', 'B', '--timeout-scale=2', '--', 'node', 'my driver.mjs'],
      files: ['/tmp/out/report.json'],
      failed: true,
    });
    expect(lines).toEqual([
      '',
      'Next:',
      '  read the report:     /tmp/out/report.json',
      "  replay this run:     npx ahp-conformance harness --only A B --timeout-scale=2 --seed 1234 -- node 'my driver.mjs'",
      "  rerun one failure:   npx ahp-conformance harness --timeout-scale=2 --only AHP-FAIL-002/transport:http/policy:fail-open --seed 1234 -- node 'my driver.mjs'",
    ]);
  });

  it('replays the same selection and options: the replay line parses to the run options, seed aside', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'ahp-next-'));
    writeFileSync(join(cwd, 'kf.txt'), 'AHP-FAIL-002/* # tracked\n');
    const args = [
      '--only',
      'AHP-CORE-001',
      'AHP-FAIL-*',
      '--skip=AHPX-BUD-*',
      '--shard',
      '2/3',
      '--known-failures',
      'kf.txt',
      '--timeout-scale',
      '2.5',
      '--runs',
      '7',
      '--repeat',
      '3',
      '--strict',
      '--reporter',
      'json',
      '--reporter',
      'junit',
      '--output-dir',
      'out dir',
      '--seed=9',
      '--',
      'node',
      'driver.mjs',
    ];
    const lines = nextSteps(report, { command: 'harness', args, files: [], failed: true });
    const parse = (argv: string[]) =>
      parseCommandLine(argv, { trailing: { name: 'd', example: 'e', whenAbsent: 'w' } }, { cwd });
    const original = await parse(args);
    const replay = await parse(argvOf(lines, 'replay this run:'));
    expect(replay.options).toEqual({ ...original.options, seed: 1234 });
    expect(replay.trailing).toEqual(['node', 'driver.mjs']);
    // The rerun runs the failing case alone, under every other option of the run.
    const rerun = await parse(argvOf(lines, 'rerun one failure:'));
    const { only, skip, shard, knownFailures, ...rest } = original.options;
    expect([only, skip, shard !== undefined, knownFailures !== undefined]).toEqual([
      ['AHP-CORE-001', 'AHP-FAIL-*'],
      ['AHPX-BUD-*'],
      true,
      true,
    ]);
    expect(rerun.options).toEqual({
      ...rest,
      reporters: ['json', 'junit'],
      only: ['AHP-FAIL-002/transport:http/policy:fail-open'],
      skip: [],
      seed: 1234,
    });
  });

  it('quotes words a shell would split or expand', () => {
    expect(shellWord('AHPX-BUD-*')).toBe("'AHPX-BUD-*'");
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
  });
});
