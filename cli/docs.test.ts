// The examples in docs/ are run through the code they describe, so a page cannot drift from the
// product: scenarios load, built-in names exist, the baseline and config examples parse.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { builtinNames, parseScenarioText, startHttpMock } from '../mock-backend/index.js';
import { requirementById } from '../protocol/requirements.js';
import { DEFAULT_DRIVER_KILL_GRACE_MS, DEFAULT_DRIVER_TIMEOUTS } from '../suites/driver/index.js';
import { DEFAULT_SETTINGS } from '../suites/harness/index.js';
import { COMMANDS } from './commands/index.js';
import { checkKnownFailuresMatch } from './known-failures/check.js';
import { parseKnownFailures } from './known-failures/parse.js';
import { parseCommandLine } from './options/resolve.js';
import { collectSources, SUITE_GLOBS } from './selection/collect.js';
import { shardProgressLine } from './shard/plan.js';
import { planShardRun } from './shard/shard-run.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const doc = (name: string) => readFileSync(join(ROOT, 'docs', name), 'utf8');

/** The fenced blocks of a Markdown page with their info string. */
function blocks(markdown: string): { lang: string; body: string }[] {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1] ?? '',
    body: m[2] ?? '',
  }));
}

describe('docs/mock-backend.md', () => {
  const page = doc('mock-backend.md');

  it('shows scenarios that the mock loads', () => {
    const scenarios = blocks(page).filter((b) => b.lang === 'json' && b.body.includes('"rules"'));
    expect(scenarios.length).toBeGreaterThan(0);
    for (const s of scenarios) expect(parseScenarioText(s.body, 'docs')).toMatchObject({ ok: true });
  });

  it('names only built-in scenarios that exist', () => {
    const table = page.slice(page.indexOf('## Built-in scenarios'), page.indexOf('## Your own scenario'));
    const named = [...table.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1] as string);
    expect(named.length).toBeGreaterThan(10);
    const known = new Set(builtinNames());
    expect(named.filter((n) => !known.has(n))).toEqual([]);
  });
});

describe('docs/harness-authors.md', () => {
  const page = doc('harness-authors.md');

  it(
    'shows a known-failures file that parses, every line matching a case of the suite',
    { timeout: 60_000 },
    async () => {
      const example = blocks(page).find((b) => b.body.startsWith('# known-failures.txt'));
      const parsed = parseKnownFailures(example?.body ?? '', 'known-failures.txt');
      expect(parsed).toMatchObject({ ok: true });
      if (!parsed.ok) return;
      expect(parsed.baseline.entries.length).toBe(2);
      // The run refuses a line that matches no case before it starts: the example must not.
      const { cases, errors } = await collectSources([{ include: [SUITE_GLOBS.harness] }]);
      expect(errors).toEqual([]);
      expect(() => checkKnownFailuresMatch(parsed.baseline, cases, 'harness')).not.toThrow();
    },
  );

  it('shows a config file that the options parse accepts', async () => {
    const example = blocks(page).find((b) => b.lang === 'json' && b.body.includes('"reporters"'));
    const dir = mkdtempSync(join(tmpdir(), 'ahp-docs-'));
    writeFileSync(join(dir, 'ahp-conformance.json'), example?.body ?? '');
    writeFileSync(join(dir, 'known-failures.txt'), 'AHPX-SYN-002 # example\n');
    const { options } = await parseCommandLine(['--config', 'ahp-conformance.json'], {}, { cwd: dir });
    expect(options).toMatchObject({ reporters: ['console', 'junit', 'markdown'], timeoutScale: 2 });
    expect(options.knownFailures?.entries).toHaveLength(1);
  });
});

describe('command lines in the docs and the README', () => {
  const sources = [
    ...[
      'harness-authors.md',
      'backend-vendors.md',
      'mock-backend.md',
      'ci-example.md',
      'driver-protocol.md',
    ].map((name) => [`docs/${name}`, doc(name)] as const),
    ['docs/examples/github-workflow.yml', doc('examples/github-workflow.yml')] as const,
    ...['README.md', 'mock-backend/README.md', 'suites/harness/README.md'].map(
      (name) => [name, readFileSync(join(ROOT, name), 'utf8')] as const,
    ),
  ];

  /**
   * Command lines: `ahp-conformance <command> ...` after `npx`, a backtick or at a line start (prose
   * that merely names the tool does not count), up to a line end, a backtick or a shell comment;
   * folded YAML and backslash continuations are joined first.
   */
  function commandLines(text: string): string[] {
    const joined = text.replace(/\n\s+(?=--)/g, ' ').replace(/\\\n\s*/g, ' ');
    return [...joined.matchAll(/(?:npx |`|^[ \t]*)ahp-conformance ([a-z-]+)((?: [^\s`#|]+)*)/gm)].map(
      (m) => `${m[1]}${m[2]}`,
    );
  }

  it('name only commands that exist, with flags each command documents in its --help', async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const [file, text] of sources) {
      for (const line of commandLines(text)) {
        const [name, ...args] = line.split(' ');
        const entry = COMMANDS.find((c) => c.name === name);
        if (!entry) {
          problems.push(`${file}: unknown command "${name}" in "${line}"`);
          continue;
        }
        checked++;
        const command = await entry.load();
        const dashes = args.indexOf('--');
        for (const arg of dashes === -1 ? args : args.slice(0, dashes)) {
          const flag = arg.startsWith('--') ? arg.split('=')[0] : undefined;
          if (flag && flag !== '--help' && !command.help.includes(flag)) {
            problems.push(`${file}: "${name}" has no ${flag} (in "${line}")`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(15);
  });
});

describe('docs/ci-example.md shard counts', () => {
  it('quote the share a shard of the whole harness suite really gets', { timeout: 120_000 }, async () => {
    const stated = /today: `(shard (\d+)\/(\d+): \d+ of \d+ cases)`/.exec(doc('ci-example.md'));
    expect(
      stated,
      'docs/ci-example.md quotes a shard line ("today: `shard i/n: x of y cases`")',
    ).not.toBeNull();
    const [, line, index, count] = stated as RegExpExecArray;
    const shard = { index: Number(index), count: Number(count) };
    const { cases, errors } = await collectSources([
      { include: [SUITE_GLOBS.harness], provide: { ahpSettings: DEFAULT_SETTINGS } },
    ]);
    expect(errors).toEqual([]);
    const split = await planShardRun('harness', cases, cases, shard, 'file');
    expect(line).toBe(shardProgressLine(shard, split.own.length, cases.length));
  });
});

describe('docs/driver-protocol.md timing', () => {
  const page = doc('driver-protocol.md');
  const seconds = (ms: number) => `${ms / 1000} s`;

  it('gives the call timeouts the driver client uses', () => {
    const row = (call: string) => new RegExp(`^\\| ${call} +\\| ([\\d.]+ s)`, 'm').exec(page)?.[1];
    const t = DEFAULT_DRIVER_TIMEOUTS;
    expect(['`initialize`', '`configure`', '`invoke`', '`close`', 'liveness request'].map(row)).toEqual(
      [t.initializeMs, t.configureMs, t.invokeMs, t.closeMs, t.probeMs].map(seconds),
    );
    expect(row('SIGTERM → SIGKILL')).toBe(seconds(DEFAULT_DRIVER_KILL_GRACE_MS));
  });

  it('states the stall bound the client keeps: the configure timeout plus the liveness timeout', () => {
    const stated = /stops the run ([\d.]+ s) after the first call/.exec(page)?.[1];
    expect(stated).toBe(seconds(DEFAULT_DRIVER_TIMEOUTS.configureMs + DEFAULT_DRIVER_TIMEOUTS.probeMs));
  });
});

describe('drift between the code and what it says of itself', () => {
  const pages = [
    'README.md',
    'mock-backend/README.md',
    'suites/harness/README.md',
    ...[
      'harness-authors.md',
      'backend-vendors.md',
      'mock-backend.md',
      'ci-example.md',
      'driver-protocol.md',
    ].map((name) => `docs/${name}`),
  ].map((name) => [name, readFileSync(join(ROOT, name), 'utf8')] as const);

  it('each --help names exactly the flags its parser accepts', async () => {
    const problems: string[] = [];
    for (const entry of COMMANDS) {
      const command = await entry.load();
      const printed = new Set([...command.help.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]));
      const parsed = new Set(command.flags);
      for (const flag of printed)
        if (!parsed.has(flag)) problems.push(`${entry.name} --help names ${flag}, which it does not parse`);
      for (const flag of parsed)
        if (!printed.has(flag)) problems.push(`${entry.name} parses ${flag}, which its --help does not name`);
    }
    expect(problems).toEqual([]);
  });

  it('every built-in scenario is listed by mock-backend --help and in docs/mock-backend.md', async () => {
    const help = (await (COMMANDS.find((c) => c.name === 'mock-backend') as (typeof COMMANDS)[number]).load())
      .help;
    const page = doc('mock-backend.md');
    const missing = builtinNames().flatMap((name) => [
      ...(new RegExp(`(?<![\\w-])${name}(?![\\w-])`).test(help) ? [] : [`mock-backend --help lacks ${name}`]),
      ...(page.includes(`\`${name}\``) ? [] : [`docs/mock-backend.md lacks \`${name}\``]),
    ]);
    expect(missing).toEqual([]);
  });

  it('every requirement ID the docs name is in the catalogue', () => {
    const unknown = pages.flatMap(([name, text]) =>
      [...text.matchAll(/\bAHPX?-[A-Z]+-\d+\b/g)]
        .map((m) => m[0])
        .filter((id) => !requirementById(id))
        .map((id) => `${name}: ${id}`),
    );
    expect(unknown).toEqual([]);
    expect(pages.some(([, text]) => /\bAHPX-[A-Z]+-\d+\b/.test(text))).toBe(true);
  });

  let hasJq = true;
  try {
    execFileSync('jq', ['--version'], { stdio: 'ignore' });
  } catch {
    hasJq = false;
  }
  // Without jq installed there is nothing to run the filter with; the run says so.
  it.skipIf(!hasJq)(
    'the jq filter of docs/mock-backend.md shows the text of every frame the mock received and wrote',
    async () => {
      const filter = /\| jq '([^']+)'/.exec(doc('mock-backend.md'))?.[1];
      expect(filter).toBeDefined();
      const mock = await startHttpMock({
        scenario: { rules: [{ behaviour: { kind: 'deny' } }] },
        control: { port: 0 },
      });
      try {
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: 'e1',
          method: 'hooks/intercept',
          params: {
            protocolVersion: 'draft',
            event: { id: 'e1', type: 'tool.before', tool: { name: 'Bash' } },
          },
        });
        await (
          await fetch(mock.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        ).text();
        const recording = await (await fetch(new URL('recordings', mock.controlUrl as string))).text();
        const shown = execFileSync('jq', ['-c', filter as string], { input: recording, encoding: 'utf8' })
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { type: string; action?: string; text: string | null });
        const framed = shown.filter((e) => e.type === 'inbound' || e.action === 'write');
        expect(framed.map((e) => e.type)).toEqual(['inbound', 'outbound']);
        expect(framed.every((e) => typeof e.text === 'string' && e.text.includes('"e1"'))).toBe(true);
      } finally {
        await mock.close();
      }
    },
  );
});
