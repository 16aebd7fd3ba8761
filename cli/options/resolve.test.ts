import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../io.js';
import { optionsForReport, parseCommandLine, type CommandLine } from './resolve.js';

const harnessSpec = {
  trailing: { name: 'driver command', example: '-- node driver.mjs', whenAbsent: 'drop "--"' },
};

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'ahp-options-'));
}

async function parse(args: string[], cwd = tempDir()): Promise<CommandLine> {
  return parseCommandLine(args, harnessSpec, { cwd, randomSeed: () => 42 });
}

async function usage(args: string[], cwd?: string): Promise<string> {
  const error = await parse(args, cwd).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsageError);
  return (error as Error).message;
}

describe('parseCommandLine', () => {
  it('applies every default and draws a seed when none is given', async () => {
    const cwd = tempDir();
    const { options, trailing } = await parse([], cwd);
    expect(options).toEqual({
      only: [],
      skip: [],
      seed: 42,
      runs: 50,
      timeoutScale: 1,
      repeat: 1,
      strict: false,
      bail: false,
      quiet: false,
      protocolVersion: 'draft',
      reporters: ['console'],
      outputDir: join(cwd, 'reports'),
    });
    expect(trailing).toBeUndefined();
    // console alone writes no file, so no directory is created.
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('turns flag strings into typed options and creates the output directory for file reporters', async () => {
    const cwd = tempDir();
    const { options } = await parse(
      [
        '--seed',
        '7',
        '--runs=3',
        '--timeout-scale',
        '2.5',
        '--repeat',
        '4',
        '--strict',
        '--reporter',
        'junit',
        '--reporter',
        'html,junit',
        '--output-dir',
        'out/r',
        '--only',
        'AHP-FAIL-001',
        'base',
        '--skip',
        'AHPX-*',
      ],
      cwd,
    );
    expect(options).toMatchObject({
      seed: 7,
      runs: 3,
      timeoutScale: 2.5,
      repeat: 4,
      strict: true,
      reporters: ['junit', 'html'],
      outputDir: join(cwd, 'out/r'),
      only: ['AHP-FAIL-001', 'base'],
      skip: ['AHPX-*'],
    });
    expect(readdirSync(join(cwd, 'out'))).toEqual(['r']);
  });

  it('merges a config file under the flags, resolving its paths next to it', async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'kf.txt'), 'AHP-FAIL-001 # tracked upstream\n');
    writeFileSync(
      join(cwd, 'ahp.json'),
      JSON.stringify({
        seed: 9,
        runs: 5,
        reporters: ['json'],
        outputDir: 'cfg-out',
        knownFailures: 'kf.txt',
      }),
    );
    const { options } = await parse(['--config', 'ahp.json', '--runs', '6'], cwd);
    expect(options).toMatchObject({ seed: 9, runs: 6, reporters: ['json'], outputDir: join(cwd, 'cfg-out') });
    expect(options.configFile).toBe(join(cwd, 'ahp.json'));
    expect(options.knownFailures?.entries.map((e) => [e.pattern, e.reason])).toEqual([
      ['AHP-FAIL-001', 'tracked upstream'],
    ]);
    // The report names the file and its content's digest: `merge` compares the shards' digests.
    expect(optionsForReport(options)).toMatchObject({
      knownFailures: 'kf.txt',
      knownFailuresSha256: createHash('sha256').update('AHP-FAIL-001 # tracked upstream\n').digest('hex'),
    });
  });

  it('names the flag, the bad value and an example in one sentence', async () => {
    expect(await usage(['--seed', 'abc'])).toBe(
      '--seed must be an integer from 0 to 2147483647, not "abc" (e.g. --seed 1234).',
    );
    expect(await usage(['--seed', '-1'])).toMatch(/^--seed must be an integer/);
    expect(await usage(['--runs', '0'])).toMatch(/^--runs must be a whole number/);
    expect(await usage(['--timeout-scale', '0'])).toMatch(/^--timeout-scale must be a number above 0/);
    expect(await usage(['--repeat', '1.5'])).toMatch(/^--repeat must be a whole number/);
    expect(await usage(['--reporter', 'xml'])).toBe(
      '--reporter must be one of console, json, junit, html, markdown, not "xml" (e.g. --reporter junit --reporter html).',
    );
    expect(await usage(['--protocol-version', '0.2'])).toMatch(
      /^--protocol-version must be "draft" \(the only revision this suite tests\), not "0.2"/,
    );
  });

  it('reads --shard as shard i of n, writes the JSON report with it, and refuses a shard past n', async () => {
    const { options } = await parse(['--shard', '2/3']);
    expect(options.shard).toEqual({ index: 2, count: 3 });
    expect(options.reporters).toEqual(['console', 'json']);
    for (const bad of ['4/3', '0/3', '2', 'a/b', '1/300']) {
      expect(await usage(['--shard', bad])).toBe(
        `--shard must be <i>/<n>, shard i of n with 1 <= i <= n <= 256, not "${bad}" (e.g. --shard 2/3).`,
      );
    }
  });

  it('refuses protocol revision 0.1 without offering it', async () => {
    const message = await usage(['--protocol-version', '0.1']);
    expect(message).toMatch(/^--protocol-version must be "draft" .*, not "0.1"/);
    expect(message.replace('not "0.1"', '')).not.toContain('0.1');
  });

  it('refuses selectors that name no catalogued requirement', async () => {
    expect(await usage(['--only', 'AHP-NOPE-001'])).toMatch(/^--only "AHP-NOPE-001": .*not a requirement ID/);
  });

  it('names the config key and file for bad config values, unknown keys and broken files', async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'bad-value.json'), JSON.stringify({ seed: 'soon' }));
    writeFileSync(join(cwd, 'bad-key.json'), JSON.stringify({ sed: 1 }));
    writeFileSync(join(cwd, 'broken.json'), '{"seed": 1,');
    writeFileSync(join(cwd, 'array.json'), '[]');
    expect(await usage(['--config', 'bad-value.json'], cwd)).toMatch(
      /^"seed" in the config file "bad-value.json" must be an integer/,
    );
    expect(await usage(['--config', 'bad-key.json'], cwd)).toMatch(
      /^the config file "bad-key.json" has an unknown key "sed"; use only: only, skip, seed/,
    );
    expect(await usage(['--config', 'broken.json'], cwd)).toMatch(
      /^the config file "broken.json" is not valid JSON/,
    );
    expect(await usage(['--config', 'array.json'], cwd)).toMatch(/must hold one JSON object/);
    expect(await usage(['--config', 'missing.json'], cwd)).toMatch(
      /^cannot read the config file "missing.json" \(ENOENT\)/,
    );
  });

  it('refuses an output directory that cannot be created, but only when a reporter writes a file', async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'a-file'), 'x');
    expect(await usage(['--reporter', 'junit', '--output-dir', 'a-file/reports'], cwd)).toMatch(
      /^cannot write reports to the output directory "a-file\/reports" \(ENOTDIR\)/,
    );
    await expect(parse(['--output-dir', 'a-file/reports'], cwd)).resolves.toBeDefined();
  });

  it('refuses an unreadable or malformed known-failures file before anything runs', async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'kf.txt'), 'AHP-FAIL-001\n');
    expect(await usage(['--known-failures', 'kf.txt'], cwd)).toMatch(/line 1 gives no reason/);
    expect(await usage(['--known-failures', 'none.txt'], cwd)).toMatch(/cannot read the known-failures file/);
  });
});
