import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../report/report.js';
import { run } from '../run.js';
import { fakeIo } from '../test-support/fake-io.js';
import { backendCommand, backendReporters, resolveBackendTarget } from './backend.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ahp-backend-cmd-'));
  await writeFile(join(dir, 'deny.json'), '{"command":"rm -rf /"}');
  await writeFile(join(dir, 'array.json'), '[{"command":"ls"}]');
  await writeFile(join(dir, 'broken.json'), '{"command":');
  await writeFile(join(dir, 'silent.js'), 'setInterval(() => {}, 1000);');
  // Answers from its first process only (the pre-flight's): every later one never gets ready.
  await writeFile(
    join(dir, 'first-process-only.js'),
    `const fs = require('node:fs');
const marker = process.argv[2];
if (fs.existsSync(marker)) setInterval(() => {}, 1000);
else require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  fs.writeFileSync(marker, '');
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: 'draft', effects: [] } }) + '\\n');
});`,
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function cli(args: string[], env: Record<string, string> = {}) {
  const f = fakeIo(['backend', ...args, '--output-dir', dir], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  const code = await run(f.io);
  return { code, out: f.out(), err: f.err() };
}

describe('backend command: usage errors', () => {
  it.each([
    [
      [],
      /^choose the backend: --stdio -- <command> \[args\.\.\.\] for a process, or --url <url> for an HTTP endpoint\.$/,
    ],
    [['--stdio', '--url', 'http://127.0.0.1:1/'], /^--stdio and --url exclude each other; pick one\.$/],
    [['--stdio'], /^--stdio needs the backend command after --/],
    [['--url', 'http://127.0.0.1:1/', '--', 'node'], /^--url takes no command after --/],
    [['--url', 'http://127.0.0.1:1/', '--lifecycle', 'per_event'], /^--lifecycle applies to --stdio only/],
    [['--stdio', '--bearer-token-env', 'T', '--', 'node'], /^--bearer-token-env applies to --url only/],
    [
      ['--url', 'http://127.0.0.1:1/', '--bearer-token-env', 'AHP_UNSET_TOKEN'],
      /^the environment variable AHP_UNSET_TOKEN \(from --bearer-token-env\) is empty or not set; export the token in it\.$/,
    ],
    [
      ['--url', 'http://127.0.0.1:1/', '--bearer-token-env', '1BAD'],
      /^--bearer-token-env must name an environment variable/,
    ],
    [['--stdio', '--lifecycle', 'forever', '--', 'node'], /^--lifecycle must be persistent or per_event\.$/],
    [
      ['--stdio', '--deadline-ms', '0', '--', 'node'],
      /^--deadline-ms must be a whole number of milliseconds from 1 to 600000/,
    ],
    [
      ['--stdio', '--deny-input', '[1]', '--', 'node'],
      /^--deny-input must be a JSON object, .*, not an array \("\[1\]"\)\.$/,
    ],
    [
      ['--stdio', '--allow-input', '@array.json', '--', 'node'],
      /^the --allow-input file "array\.json" holds an array; it must hold a JSON object, a tool input your policy lets through/,
    ],
    [
      ['--stdio', '--deny-input', '@broken.json', '--', 'node'],
      /^the --deny-input file "broken\.json" is not JSON \(.+\); it must hold a JSON object, a tool input your policy denies/,
    ],
    [
      ['--stdio', '--allow-input', '"ls"', '--', 'node'],
      /^--allow-input must be a JSON object, a tool input your policy lets through \(e\.g\. '\{"command":"git status"\}'\), not/,
    ],
    [
      ['--stdio', '--allow-input', '@nope.json', '--', 'node'],
      /^cannot read the --allow-input file "nope\.json" \(ENOENT\); check the path\.$/,
    ],
    [
      ['--stdio', '--deny-input', '{not json', '--', 'node'],
      /^--deny-input must be a JSON object, .* \(not JSON: .+\)\.$/,
    ],
    [
      ['--stdio', '--deny-input', '@missing.json', '--', 'node'],
      /^cannot read the --deny-input file "missing\.json" \(ENOENT\); check the path\.$/,
    ],
    [['--url', 'http://example.com/'], /^--url ".*" uses plain http to a non-loopback host/],
    [['--stdio', '--reporter', 'pdf', '--', 'node'], /^--reporter must be one of/],
    [['--stdoi', '--', 'node'], /^unknown option "--stdoi"; did you mean --stdio\?$/],
  ])('%j exits 2 with one sentence', async (args, message) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    const line = r.err.replace(/^ahp-conformance backend: /, '').trimEnd();
    expect(line).toMatch(message);
    expect(line.split('\n')).toHaveLength(1);
  });

  it('documents its options', async () => {
    const f = fakeIo(['backend', '--help']);
    expect(await run(f.io)).toBe(0);
    for (const flag of [
      '--stdio',
      '--lifecycle',
      '--url',
      '--bearer-token-env',
      '--allow-input',
      '--deny-input',
      '--deadline-ms',
      '--only',
      '--timeout-scale',
      '--strict',
    ]) {
      expect(backendCommand.help).toContain(flag);
    }
  });
});

describe('backend command: target', () => {
  it('gives a stdio backend a minimal environment and reads a deny input from a file', async () => {
    const target = await resolveBackendTarget(
      { stdio: true, denyInput: '@deny.json', allowInput: '{"command":"git status"}' },
      ['node', 'b.mjs', '--flag'],
      { cwd: dir, env: { PATH: '/bin', HOME: '/h', AHP_SECRET: 'x' } },
    );
    expect(target).toEqual({
      endpoint: {
        kind: 'stdio',
        lifecycle: 'persistent',
        command: 'node',
        args: ['b.mjs', '--flag'],
        cwd: dir,
        env: { PATH: '/bin', HOME: '/h' },
      },
      deadlineMs: 5000,
      allowInput: { command: 'git status' },
      denyInput: { command: 'rm -rf /' },
    });
  });

  it('resolves the bearer token from the named variable', async () => {
    const target = await resolveBackendTarget(
      { url: 'https://policy.example/ahp', bearerTokenEnv: 'TOK', deadlineMs: '1500' },
      undefined,
      { cwd: dir, env: { TOK: 'abc' } },
    );
    expect(target).toEqual({
      endpoint: {
        kind: 'http',
        url: 'https://policy.example/ahp',
        bearerTokenEnv: 'TOK',
        bearerToken: 'abc',
      },
      deadlineMs: 1500,
    });
  });

  it('always writes the self-certification report besides the requested reporters', () => {
    expect(backendReporters(['console'])).toEqual(['console', 'json', 'markdown']);
    expect(backendReporters(['junit', 'json'])).toEqual(['junit', 'json', 'markdown']);
  });
});

describe('backend command: a backend that cannot be exercised', () => {
  it('exits 3 naming a command that does not exist, before any case runs', async () => {
    const r = await cli(['--stdio', '--', 'ahp-no-such-backend-command']);
    expect(r.code).toBe(3);
    expect(r.err).toMatch(
      /^ahp-conformance backend: could not start "ahp-no-such-backend-command" .*; check the command after -- and your PATH\.\n$/,
    );
    // Only the startup step, no case.
    expect(r.out).toMatch(
      /^Checking that the backend answers: one tool\.before to ahp-no-such-backend-command .*\n$/,
    );
  });

  it('leaves a case untested, with the reason, when its process never answers within its warm-up', async () => {
    const name = 'AHP-RPC-001/transport:stdio-persistent/reply-is-one-json-rpc-object-with-the-request-id';
    const r = await cli([
      '--stdio',
      '--deadline-ms',
      '100',
      '--timeout-scale',
      '0.1',
      '--reporter',
      'json',
      '--only',
      name,
      '--output-dir',
      join(dir, 'not-ready'),
      '--',
      process.execPath,
      join(dir, 'first-process-only.js'),
      join(dir, 'answered-once'),
    ]);
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(await readFile(join(dir, 'not-ready', 'report.json'), 'utf8')) as Report;
    const cases = report.requirements.flatMap((x) => x.cases).filter((c) => c.status !== 'skipped');
    expect(cases.map((c) => [c.name, c.status, c.note])).toEqual([
      [
        name,
        'untested',
        expect.stringMatching(
          /^the backend process started for this case did not answer its first request \(a tool\.before with the allow input\) within the warm-up bound of \d+ ms \(--deadline-ms 100 plus \d+ ms for the process to start\), so it never became ready and nothing could be judged; if it starts this slowly, give it more time with --timeout-scale\.$/,
        ),
      ],
    ]);
  }, 120_000);

  it('exits 3 when a persistent backend is still silent after the deadline plus its warm-up', async () => {
    // At --timeout-scale 0.1 the warm-up is 1 s, longer than twice the deadline and the floor.
    const r = await cli([
      '--stdio',
      '--deadline-ms',
      '100',
      '--timeout-scale',
      '0.1',
      '--',
      process.execPath,
      join(dir, 'silent.js'),
    ]);
    expect(r.code).toBe(3);
    expect(r.err).toMatch(
      /did not answer a tool\.before request within 1100 ms \(the pre-flight bound: --deadline-ms 100 plus the 1000 ms a process is given to start, at --timeout-scale 0\.1\); .*, and give a slower start more time with --timeout-scale\.\n$/,
    );
  });
});
