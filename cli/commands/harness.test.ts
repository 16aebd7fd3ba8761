import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAKE_DRIVER } from '../../suites/driver/test-drivers/margins.js';
import type { Report } from '../report/report.js';
import { run } from '../run.js';
import { fakeIo } from '../test-support/fake-io.js';
import { parseCommandLine } from '../options/resolve.js';
import { harnessPlan, preflightDriver, redactCommand, referenceDriverCommand } from './harness.js';

// Spawning a driver costs a Node boot: generous on a loaded 2-core machine.
const SPAWN = { timeout: 60_000 };

describe('redactCommand', () => {
  it('hides secret-looking values and keeps everything else', () => {
    expect(
      redactCommand([
        'node',
        'driver.mjs',
        '--token',
        's3cret',
        '--api-key=abc',
        'AUTH_TOKEN=xyz',
        'Bearer abc.def',
        'https://user:pw@example.com/x',
        '--verbose',
      ]),
    ).toEqual([
      'node',
      'driver.mjs',
      '--token',
      '<redacted>',
      '--api-key=<redacted>',
      'AUTH_TOKEN=<redacted>',
      'Bearer <redacted>',
      'https://<redacted>@example.com/x',
      '--verbose',
    ]);
  });
});

describe('ahp-conformance harness', () => {
  it('exits 3 in one sentence when the driver cannot be started', SPAWN, async () => {
    const f = fakeIo(['harness', '--', '/nonexistent/ahp-driver']);
    expect(await run(f.io)).toBe(3);
    const lines = f.err().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/could not be started.*check that the command after "--" exists/);
    expect(f.out()).toMatch(/Seed \d+ \(replay with --seed \d+\)/);
  });

  it('exits 3 in one sentence, no stack trace, when a node driver script does not exist', async () => {
    const f = fakeIo(
      [
        'harness',
        '--',
        'node',
        'node_modules/ahp-conformance/fixtures/harnesses/run-twin.mjs',
        'claim-missing',
      ],
      {
        cwd: tmpdir(),
      },
    );
    expect(await run(f.io)).toBe(3);
    const lines = f.err().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^ahp-conformance harness: the driver script "node_modules\/ahp-conformance\/fixtures\/harnesses\/run-twin\.mjs" does not exist/,
    );
  });

  it('exits 3 when the driver writes something other than JSON-RPC on stdout', SPAWN, async () => {
    const f = fakeIo([
      'harness',
      '--seed',
      '5',
      '--',
      process.execPath,
      '-e',
      'console.log("hello"); setTimeout(() => {}, 5000)',
    ]);
    expect(await run(f.io)).toBe(3);
    expect(f.err()).toMatch(/not a JSON-RPC message/);
  });

  it(
    'stops the run with exit 3, the sentence and the stderr tail when the driver exits after initialize',
    { timeout: 120_000 },
    async () => {
      const out = mkdtempSync(join(tmpdir(), 'ahp-stop-'));
      const f = fakeIo([
        'harness',
        '--only',
        'AHP-FAIL-001/transport:stdio-persistent/policy:fail-open/class:malformed',
        '--reporter',
        'console',
        '--reporter',
        'json',
        '--output-dir',
        out,
        '--',
        process.execPath,
        FAKE_DRIVER,
        'exit-after-init',
      ]);
      expect(await run(f.io)).toBe(3);
      // The driver exits 50 ms after its reply: on a busy machine the suite has sent the next
      // request by then, and the sentence names the one it waited for.
      expect(f.err()).toMatch(
        /exited with exit code 4( while the suite waited for "configure")?; a driver must keep answering/,
      );
      expect(f.err()).toContain('  | fatal: lost the harness after initialize');
      expect(f.out()).toMatch(/^STOPPED {2}AHP-FAIL-001\/transport:stdio-persistent/m);
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
      expect(report.stopped?.stderrTail).toContain('fatal: lost the harness after initialize');
      rmSync(out, { recursive: true, force: true });
    },
  );

  it('refuses "--" with nothing after it, and unknown flags, with exit 2', async () => {
    const empty = fakeIo(['harness', '--']);
    expect(await run(empty.io)).toBe(2);
    expect(empty.err()).toMatch(/nothing follows "--"/);
    const unknown = fakeIo(['harness', '--no-such-flag']);
    expect(await run(unknown.io)).toBe(2);
  });

  it('builds the run from the reference driver: claim, redacted target, provided values', SPAWN, async () => {
    const command = [...referenceDriverCommand()];
    const { options } = await parseCommandLine(
      ['--seed', '9', '--timeout-scale', '2'],
      {},
      { cwd: process.cwd() },
    );
    const info = await preflightDriver(command, { env: { ...process.env }, cwd: process.cwd() }, options);
    expect(info.bindings).toEqual(['stdio', 'http']);
    const plan = harnessPlan(
      [...command, '--token', 'x'],
      info,
      { env: { A: '1' }, cwd: '/w' },
      options,
      'tok',
    );
    expect(plan.claim).toEqual({
      role: 'harness',
      bindings: ['stdio', 'http'],
      profiles: ['base', 'tool-interception', 'lifecycle-observation'],
    });
    expect(plan.include).toEqual(['suites/harness/**/*.conformance.ts']);
    expect(plan.target).toMatchObject({ kind: 'driver', command: [...command, '--token', '<redacted>'] });
    expect(plan.provide).toMatchObject({
      ahpHarnessTarget: {
        kind: 'driver',
        command: [...command, '--token', 'x'],
        env: { A: '1' },
        cwd: '/w',
        token: 'tok',
      },
      ahpSettings: { seed: 9, timeoutScale: 2, protocolVersion: 'draft' },
    });
  });
});
