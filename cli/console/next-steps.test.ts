import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPLAY_OPTIONS } from '../options/replay-options.js';
import { parseCommandLine, type ResolvedOptions } from '../options/resolve.js';
import { commonOptionsSchema } from '../options/schema.js';
import type { Report } from '../report/report.js';
import { parseSelector, selects } from '../selection/selector.js';
import { caseSelector, nextSteps, ownOptions, shellWord } from './next-steps.js';

const FAILING = 'AHP-FAIL-002/transport:http/policy:fail-open';

/** A failing run's report whose waits ran at `applied` (the machine was busy). */
const reportOf = (applied = 1, failing = FAILING) =>
  ({
    seed: 1234,
    options: { timeoutScale: 1, machineScale: applied, effectiveTimeoutScale: applied },
    requirements: [
      { id: 'AHP-FAIL-001', cases: [{ name: 'AHP-FAIL-001/transport:http/ok', status: 'pass' }] },
      { id: 'AHP-FAIL-002', cases: [{ name: failing, status: 'fail' }] },
    ],
  }) as unknown as Report;

/** Splits a printed line back into argv words (bare words and single-quoted ones, as shellWord writes). */
function words(line: string): string[] {
  return [...line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) =>
    m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : (m[2] as string),
  );
}

/** The command line of a printed step. */
function commandOf(lines: string[], label: string): string {
  const line = lines.find((l) => l.trimStart().startsWith(label)) as string;
  return line.slice(line.indexOf('npx'));
}

/** The argv after `npx ahp-conformance <command>` of a printed step. */
function argvOf(lines: string[], label: string): string[] {
  return words(commandOf(lines, label)).slice(3);
}

const harnessSpec = { trailing: { name: 'd', example: 'e', whenAbsent: 'w' } };

async function resolved(args: string[], cwd: string): Promise<ResolvedOptions> {
  return (await parseCommandLine(args, harnessSpec, { cwd })).options;
}

describe('nextSteps', () => {
  it('says nothing after a run that passed', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'ahp-next-'));
    const options = await resolved([], cwd);
    expect(
      nextSteps(reportOf(), { command: 'harness', args: [], files: [], failed: false, options, cwd }),
    ).toEqual([]);
  });

  it('carries the timeout scale the run applied, and writes to folders of their own', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'ahp-next-'));
    const args = ['--seed', '9', '--only', 'A', 'B', '--timeout-scale=2', '--', 'node', 'my driver.mjs'];
    const options = await resolved(args, cwd);
    const lines = nextSteps(reportOf(4.7), {
      command: 'harness',
      args,
      files: [join(cwd, 'reports', 'report.json')],
      failed: true,
      options,
      cwd,
    });
    expect(lines).toEqual([
      '',
      'Next:',
      `  read the report:     ${join(cwd, 'reports', 'report.json')}`,
      "  replay this run:     npx ahp-conformance harness --only A --only B --seed 1234 --timeout-scale 4.7 --output-dir reports/replay -- node 'my driver.mjs'",
      `  rerun one failure:   npx ahp-conformance harness --only ${FAILING} --seed 1234 --timeout-scale 4.7 --output-dir reports/rerun -- node 'my driver.mjs'`,
    ]);
  });

  it('replays every option of the run: the replay line parses to the run options, with its seed, scale and folder', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'ahp-next-'));
    writeFileSync(join(cwd, 'kf.txt'), 'AHP-FAIL-002/* # tracked\n');
    // A config file's paths are relative to the file: the lines must still find them from cwd.
    mkdirSync(join(cwd, 'ci'));
    writeFileSync(join(cwd, 'ci', 'kf.txt'), 'AHP-FAIL-002/* # tracked\n');
    writeFileSync(join(cwd, 'ci', 'ahp.json'), JSON.stringify({ knownFailures: 'kf.txt', runs: 7 }));
    const args = [
      '--config',
      'ci/ahp.json',
      '--only',
      'AHP-CORE-001',
      'AHP-FAIL-*',
      '--skip=AHPX-BUD-*',
      '--shard',
      '2/3',
      '--timeout-scale',
      '2.5',
      '--repeat',
      '3',
      '--strict',
      '--quiet',
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
    const original = await resolved(args, cwd);
    const lines = nextSteps(reportOf(3.5), {
      command: 'harness',
      args,
      files: [],
      failed: true,
      options: original,
      cwd,
    });
    const { configFile, quiet, ...options } = original;
    expect([configFile !== undefined, quiet]).toEqual([true, true]);
    // The same file, named from cwd now that no config file stands between.
    const carried = { ...options, knownFailures: { ...options.knownFailures, file: 'ci/kf.txt' } };
    expect(carried.knownFailures.path).toBe(join(cwd, 'ci', 'kf.txt'));
    const parse = (argv: string[]) => parseCommandLine(argv, harnessSpec, { cwd });
    const replay = await parse(argvOf(lines, 'replay this run:'));
    expect(replay.options).toEqual({
      ...carried,
      quiet: false,
      seed: 1234,
      timeoutScale: 3.5,
      outputDir: join(cwd, 'out dir', 'replay'),
    });
    expect(replay.trailing).toEqual(['node', 'driver.mjs']);
    // The rerun runs the failing case alone, under every other option of the run.
    const rerun = await parse(argvOf(lines, 'rerun one failure:'));
    const { only, skip, shard, ...rest } = carried;
    expect([only, skip, shard]).toEqual([
      ['AHP-CORE-001', 'AHP-FAIL-*'],
      ['AHPX-BUD-*'],
      { index: 2, count: 3 },
    ]);
    expect(rerun.options).toEqual({
      ...rest,
      quiet: false,
      reporters: ['json', 'junit'],
      only: [FAILING],
      skip: [],
      seed: 1234,
      timeoutScale: 3.5,
      outputDir: join(cwd, 'out dir', 'rerun'),
    });
  });

  it('quotes a driver command with spaces and quotes so that a shell gives back the same words', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'ahp-next-'));
    const driver = ['node', "it's my driver.mjs", '--greeting', 'say "hi" $HOME', '*', ''];
    const args = ['--', ...driver];
    const options = await resolved(args, cwd);
    const lines = nextSteps(reportOf(), { command: 'harness', args, files: [], failed: true, options, cwd });
    for (const label of ['replay this run:', 'rerun one failure:']) {
      const line = commandOf(lines, label);
      const printed = execFileSync('sh', ['-c', `printf '%s\\0' ${line}`], { cwd, encoding: 'utf8' });
      const argv = printed.split('\0').slice(0, -1);
      expect(argv.slice(0, 3)).toEqual(['npx', 'ahp-conformance', 'harness']);
      expect(argv.slice(argv.indexOf('--') + 1)).toEqual(driver);
    }
  });

  it("keeps a backend's own options as typed and carries the common ones from the run", async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'ahp-next-'));
    const head = [
      '--stdio',
      '--strict',
      '--lifecycle',
      'per_event',
      '--runs',
      '3',
      '--deny-input',
      '{"a":1}',
    ];
    expect(ownOptions([...head, '--only', 'A', 'B', '--quiet'])).toEqual([
      '--stdio',
      '--lifecycle',
      'per_event',
      '--deny-input',
      '{"a":1}',
    ]);
    const flags = {
      '--stdio': { key: 'stdio', kind: 'boolean' },
      '--lifecycle': { key: 'lifecycle', kind: 'value' },
      '--deny-input': { key: 'denyInput', kind: 'value' },
    } as const;
    const args = [...head, '--', 'node', 'backend.mjs'];
    const { options } = await parseCommandLine(args, { ...harnessSpec, flags }, { cwd });
    const lines = nextSteps(reportOf(), { command: 'backend', args, files: [], failed: true, options, cwd });
    expect(commandOf(lines, 'rerun one failure:')).toBe(
      `npx ahp-conformance backend --stdio --lifecycle per_event --deny-input '{"a":1}' --only ${FAILING} --seed 1234 --runs 3 --strict --output-dir reports/rerun -- node backend.mjs`,
    );
  });

  it('reruns a case whose name holds commas with a selector that selects exactly it', async () => {
    const name = 'AHP-CORE-003/transport:http/unknown-fields:params,event,session/same-decision-no-error';
    const cwd = mkdtempSync(join(tmpdir(), 'ahp-next-'));
    const options = await resolved([], cwd);
    const lines = nextSteps(reportOf(1, name), {
      command: 'harness',
      args: [],
      files: [],
      failed: true,
      options,
      cwd,
    });
    const rerun = await parseCommandLine(argvOf(lines, 'rerun one failure:'), harnessSpec, { cwd });
    expect(rerun.options.only).toEqual([caseSelector(name)]);
    const parsed = parseSelector(caseSelector(name));
    if (!parsed.ok) throw new Error(parsed.reason);
    const selectable = (n: string) => ({ name: n, requirements: ['AHP-CORE-003'], profiles: [] });
    expect(selects(parsed.selector, selectable(name))).toBe(true);
    expect(selects(parsed.selector, selectable(name.replace('params', 'result')))).toBe(false);
  });

  it('decides for every option of the schema whether it changes a verdict and how the lines carry it', () => {
    for (const key of Object.keys(commonOptionsSchema.shape)) {
      const rule = REPLAY_OPTIONS[key as keyof typeof REPLAY_OPTIONS] as
        (typeof REPLAY_OPTIONS)['only'] | undefined;
      expect(rule, `option "${key}" is neither carried nor declared verdict-neutral`).toBeDefined();
      expect(rule?.why.length).toBeGreaterThan(0);
      // Only a selection may be left out of the rerun: the rerun's own `--only` replaces it.
      if (rule?.changesVerdict === true && rule.rerun === undefined)
        expect(['only', 'skip', 'shard']).toContain(key);
    }
  });

  it('quotes words a shell would split or expand', () => {
    expect(shellWord('AHPX-BUD-*')).toBe("'AHPX-BUD-*'");
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
    expect(shellWord('')).toBe("''");
  });
});
