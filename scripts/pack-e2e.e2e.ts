// The package as users get it: `npm pack`, install the tarball into an empty folder, then run the
// installed bin. The install prefers the npm cache: `npm ci` filled it with every tarball, but it
// fetches no package metadata, which a tarball install needs (so --offline fails on a clean cache).
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBundles } from '../cli/bundles.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'ahp-pack-e2e-'));
const app = join(work, 'app');
let tarball = '';
let packed: string[] = [];

beforeAll(async () => {
  await ensureBundles();
  // --ignore-scripts: `prepare` would rebuild dist/ under other processes that run it; the
  // bundles were just made fresh above, which is what `prepare` guarantees.
  const pack = await execa('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
    cwd: ROOT,
  });
  const info = (JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[])[0];
  if (!info) throw new Error('npm pack printed no package');
  tarball = join(work, info.filename);
  packed = info.files.map((f) => f.path);
  await execa('mkdir', ['-p', app]);
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'empty-app', private: true, type: 'module' }),
  );
  await execa('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: app });
});

const bin = (args: string[]) =>
  execa('npx', ['--no-install', 'ahp-conformance', ...args], { cwd: app, reject: false });

describe('the packed package', () => {
  it('ships what runs: bin, bundles, suites, the report schema and the docs, without unit tests', () => {
    for (const file of [
      'bin/ahp-conformance.mjs',
      'dist/cli.mjs',
      'dist/reference-driver.mjs',
      'cli/report/report.schema.json',
      'cli/shard/harness-durations.json',
      'docs/harness-authors.md',
      'README.md',
    ]) {
      expect(packed).toContain(file);
    }
    expect(packed.some((f) => /^suites\/harness\/.+\.conformance\.ts$/.test(f))).toBe(true);
    // The CLI bundle loads each command from a chunk beside it.
    expect(packed.some((f) => /^dist\/cli\.chunk-.+\.mjs$/.test(f))).toBe(true);
    expect(packed.some((f) => /^suites\/backend\/.+\.conformance\.ts$/.test(f))).toBe(true);
    expect(packed.filter((f) => f.endsWith('.test.ts'))).toEqual([]);
  });

  it('installs what the suites need at run time as dependencies (vitest and vite included)', () => {
    const installed = readdirSync(join(app, 'node_modules'));
    for (const dep of ['vitest', 'vite', 'tsx', 'execa', 'msw', 'fast-check', 'json-rpc-2.0', 'zod']) {
      expect(installed).toContain(dep);
    }
    expect(installed).not.toContain('typescript');
    expect(installed).not.toContain('eslint');
  });

  it('runs the installed bin: version, list and validate', async () => {
    const version = await bin(['--version']);
    expect(version.exitCode).toBe(0);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(version.stdout.trim()).toBe(pkg.version);
    const list = await bin(['list', '--json']);
    expect(list.exitCode).toBe(0);
    const { cases } = JSON.parse(list.stdout) as { cases: { role: string }[] };
    expect(cases.filter((c) => c.role === 'harness').length).toBeGreaterThan(0);
    writeFileSync(
      join(app, 'reply.json'),
      '{"jsonrpc":"2.0","id":"e","result":{"protocolVersion":"draft","effects":[]}}',
    );
    const validate = await bin(['validate', 'reply.json']);
    expect(validate.exitCode).toBe(0);
  });

  it('runs the harness suite from the installed package against the bundled reference harness', async () => {
    // One file's worth of cases keeps this a packaging check, not a second conformance run.
    const run = await bin([
      'harness',
      '--only',
      'AHP-FAIL-001/transport:http/policy:fail-closed/**',
      '--reporter',
      'console',
      '--reporter',
      'json',
      '--reporter',
      'junit',
      '--output-dir',
      'out',
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(app, 'out', 'report.json'), 'utf8')) as {
      role: string;
      summary: { passed: number; failed: number };
    };
    expect(report.role).toBe('harness');
    expect(report.summary.passed).toBeGreaterThan(0);
    expect(report.summary.failed).toBe(0);
    expect(readFileSync(join(app, 'out', 'junit.xml'), 'utf8')).toContain('<testsuites');
  });
});

// Before the package is on the registry, users install it from the repository (README, Install):
// npm clones it, installs its dependencies, builds dist/ in `prepare`, and links the bins.
describe('the package installed from its git repository', () => {
  it('installs the committed HEAD and runs its bins', async () => {
    const gitApp = join(work, 'git-app');
    await execa('mkdir', ['-p', gitApp]);
    writeFileSync(join(gitApp, 'package.json'), JSON.stringify({ name: 'git-app', private: true }));
    const head = (await execa('git', ['rev-parse', 'HEAD'], { cwd: ROOT })).stdout.trim();
    await execa(
      'npm',
      ['install', '--save-dev', '--prefer-offline', '--no-audit', '--no-fund', `git+file://${ROOT}#${head}`],
      {
        cwd: gitApp,
      },
    );
    const run = (args: string[]) => execa('npx', ['--no-install', ...args], { cwd: gitApp, reject: false });
    const version = await run(['ahp-conformance', '--version']);
    expect(version.exitCode, version.stderr).toBe(0);
    const twin = await run(['ahp-broken-twin', 'no-such-twin']);
    expect(twin.exitCode).toBe(2);
    expect(twin.stderr).toMatch(/^ahp-broken-twin: there is no twin "no-such-twin"/);
  });
});
