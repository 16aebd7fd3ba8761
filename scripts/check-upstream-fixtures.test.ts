import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkUpstreamFixtures, run, type FixtureCase } from './check-upstream-fixtures.js';

// Our own miniature fixture set, laid out like the upstream folder.
const FILES: Record<string, string> = {
  'registration/ok.valid.json': JSON.stringify({
    protocolVersion: 'draft',
    hooks: [
      {
        id: 'com.example.p',
        transport: { type: 'stdio', command: 'p', lifecycle: 'per_event' },
        subscriptions: [
          {
            events: ['tool.before'],
            mode: 'intercept',
            timeoutMs: 100,
            failurePolicy: 'fail-open',
            content: { default: 'omit' },
          },
        ],
      },
    ],
  }),
  'stdio/deny.valid.jsonl': JSON.stringify({
    jsonrpc: '2.0',
    id: 'e1',
    result: { protocolVersion: 'draft', effects: [{ type: 'deny', reason: 'no' }] },
  }),
  'stdio/pretty.invalid.jsonl': JSON.stringify({ jsonrpc: '2.0', id: 'e1', result: {} }, null, 2),
  'http/unknown-effect.invalid.json': JSON.stringify({
    jsonrpc: '2.0',
    id: 'e1',
    result: { protocolVersion: 'draft', effects: [{ type: 'message', text: 'x' }, { type: 'warp' }] },
  }),
  'http/content-edit.json': JSON.stringify({
    jsonrpc: '2.0',
    id: 'e1',
    result: {
      protocolVersion: 'draft',
      effects: [{ type: 'modify', target: 'content', operation: 'merge', value: {} }],
    },
  }),
  'http/catalogue-x.valid.json': JSON.stringify({ jsonrpc: '2.0', method: 'hooks/observe', params: {} }),
};

const hash = (text: string) => createHash('sha256').update(`${text}\n`).digest('hex');

function entry(
  id: string,
  file: string,
  binding: string,
  expectedValid: boolean,
  extra: Partial<FixtureCase> = {},
): FixtureCase {
  return {
    id,
    path: `fixtures/draft/${file}`,
    binding,
    schema: 'schema/draft/x.json',
    expectedValid,
    requirements: ['AHP-RPC-001'],
    sha256: hash(FILES[file] ?? ''),
    ...extra,
  };
}

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Writes the files and a manifest of `cases`; `skip` files are left out to simulate missing copies. */
function setUp(cases: FixtureCase[], skip: string[] = []): string {
  dir = mkdtempSync(join(tmpdir(), 'ahp-fixtures-'));
  for (const [file, text] of Object.entries(FILES)) {
    if (skip.includes(file)) continue;
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), `${text}\n`);
  }
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ protocolVersion: 'draft', cases }));
  return dir;
}

const BASE: FixtureCase[] = [
  entry('registration.ok.valid', 'registration/ok.valid.json', 'registration-json', true),
  entry('stdio.deny.valid', 'stdio/deny.valid.jsonl', 'stdio-jsonl', false, { aggregateExpectedValid: true }),
  entry('stdio.pretty.invalid', 'stdio/pretty.invalid.jsonl', 'stdio-jsonl', false, {
    aggregateExpectedValid: false,
  }),
  entry('http.unknown-effect.invalid', 'http/unknown-effect.invalid.json', 'http-json', false, {
    aggregateExpectedValid: false,
  }),
  entry('http.content-edit.invalid', 'http/content-edit.json', 'http-json', true, {
    aggregateExpectedValid: true,
    contextualExpectedValid: false,
    editContext: { event: 'user.elicitation.result', mode: 'form', action: 'decline' },
  }),
  // Disagrees on purpose, but the kind is not claimed.
  entry('http.catalogue-x.valid', 'http/catalogue-x.valid.json', 'http-json', true, {
    aggregateExpectedValid: true,
  }),
];

function runOn(d: string, allowlist: { id: string; reason: string }[] = []) {
  const lines: string[] = [];
  const code = run({ argv: [d], stdout: (l) => lines.push(l), allowlist });
  return { code, lines };
}

describe('check-upstream-fixtures', () => {
  it('agrees on a correct set, judges responses by the aggregate expectation and edits in context', () => {
    const report = checkUpstreamFixtures(setUp(BASE));
    const verdicts = report.verdicts.map((v) => `${v.id} ${v.basis} ${v.judged}`);
    expect(verdicts).toEqual([
      'registration.ok.valid expectedValid true',
      'stdio.deny.valid aggregateExpectedValid true',
      'stdio.pretty.invalid aggregateExpectedValid false',
      'http.unknown-effect.invalid aggregateExpectedValid false',
      'http.content-edit.invalid aggregateExpectedValid true',
      'http.content-edit.invalid contextualExpectedValid false',
      'http.catalogue-x.valid aggregateExpectedValid false',
    ]);
    const { code, lines } = runOn(dir);
    expect(code).toBe(0);
    expect(lines).toContain(
      'not covered: catalogue-depth (1 verdicts, informational; would disagree on http.catalogue-x.valid)',
    );
    expect(lines.some((l) => l.startsWith('MISMATCH'))).toBe(false);
  });

  it('fails with one line per mismatch in a claimed kind', () => {
    const flipped = BASE.map((c) =>
      c.id === 'http.unknown-effect.invalid' ? { ...c, aggregateExpectedValid: true } : c,
    );
    const { code, lines } = runOn(setUp(flipped));
    expect(code).toBe(1);
    const mismatches = lines.filter((l) => l.startsWith('MISMATCH'));
    expect(mismatches).toHaveLength(1);
    expect(mismatches[0]).toMatch(
      /^MISMATCH http\.unknown-effect\.invalid \[effects\] aggregateExpectedValid valid, judged invalid: AHP-DEC-001/,
    );
  });

  it('finds a missing file by its SHA-256 twin, and lists files it cannot find', () => {
    const twin = entry('http.twin.invalid', 'http/content-edit.json', 'http-json', true, {
      aggregateExpectedValid: true,
    });
    const lost = { ...entry('http.lost.valid', 'http/lost.json', 'http-json', true), sha256: 'f'.repeat(64) };
    const report = checkUpstreamFixtures(
      setUp([{ ...twin, path: 'fixtures/draft/http/elsewhere.json' }, lost]),
    );
    expect(report.verdicts.map((v) => v.id)).toEqual(['http.twin.invalid']);
    expect(report.missing).toEqual(['http.lost.valid']);
    expect(runOn(dir).lines).toContain('missing locally (not judged): http.lost.valid');
  });

  it('fails when a fixture no longer matches its manifest hash', () => {
    const changed = BASE.map((c) => (c.id === 'stdio.deny.valid' ? { ...c, sha256: '0'.repeat(64) } : c));
    const { code, lines } = runOn(setUp(changed));
    expect(code).toBe(1);
    expect(lines).toContain("CHANGED stdio.deny.valid: the file's SHA-256 differs from the manifest");
  });

  it('honours an allowlist entry with its reason and fails on a stale one', () => {
    const flipped = BASE.map((c) =>
      c.id === 'stdio.pretty.invalid' ? { ...c, aggregateExpectedValid: true } : c,
    );
    const allowed = runOn(setUp(flipped), [
      { id: 'stdio.pretty.invalid', reason: 'judged wrong on purpose' },
    ]);
    expect(allowed.code).toBe(0);
    expect(allowed.lines).toContain(
      'ALLOWED stdio.pretty.invalid [stdio] expected valid: judged wrong on purpose',
    );
    rmSync(dir, { recursive: true, force: true });
    const stale = runOn(setUp(BASE), [{ id: 'stdio.deny.valid', reason: 'no longer needed' }]);
    expect(stale.code).toBe(1);
    expect(stale.lines[0]).toMatch(/^STALE stdio\.deny\.valid/);
  });

  it('answers usage errors with exit 2 and one sentence', () => {
    const lines: string[] = [];
    expect(run({ argv: [], stdout: (l) => lines.push(l) })).toBe(2);
    expect(run({ argv: [join(tmpdir(), 'no-such-fixtures-dir')], stdout: (l) => lines.push(l) })).toBe(2);
    expect(lines[1]).toMatch(/^cannot read .*manifest\.json: .*pass the fixtures folder\.$/);
    dir = mkdtempSync(join(tmpdir(), 'ahp-fixtures-'));
  });
});
