// `diff` on two real reports: `harness --only 'AHPX-SHUT-*' --reporter json` run against the
// second-close-fails twin (its AHPX-SHUT-003 cases fail) and against the reference harness, trimmed
// to the cases that ran and without their evidence (test-support/diff/).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../report/report.js';
import { run } from '../run.js';
import { fakeIo } from '../test-support/fake-io.js';

const FIXTURES = new URL('../report/test-support/diff/', import.meta.url).pathname;
const TWIN = join(FIXTURES, 'second-close-fails.json');
const REFERENCE = join(FIXTURES, 'reference.json');
const SECOND_CLOSE = [
  'AHPX-SHUT-003/transport:http/a-second-close-is-safe',
  'AHPX-SHUT-003/transport:stdio-persistent/a-second-close-is-safe',
];
const IN_PROCESS = 'AHPX-SHUT-004/in-process/close-leaves-injected-transports-and-token-providers-open';

const dir = mkdtempSync(join(tmpdir(), 'ahp-diff-'));
const read = (path: string): Report => JSON.parse(readFileSync(path, 'utf8')) as Report;

/** Writes `report` changed by `edit` to a file of the temporary folder and returns its path. */
function variant(name: string, from: string, edit: (r: Report) => void): string {
  const report = read(from);
  edit(report);
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(report));
  return path;
}

async function diff(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const f = fakeIo(['diff', ...argv], { cwd: dir });
  const code = await run(f.io);
  return { code, out: f.out(), err: f.err() };
}

describe('ahp-conformance diff', () => {
  it('the twin before and after its fix: the two failing cases are fixed, exit 0', async () => {
    const { code, out } = await diff(TWIN, REFERENCE);
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    expect(lines[1]).toBe(
      '0 regressed, 2 fixed, 0 newly untested, 1 newly passing, 0 gone, 0 new; 8 cases unchanged.',
    );
    expect(out).toContain(
      ['Fixed (failed before, passes now): 2', ...SECOND_CLOSE.map((n) => `  ${n}  fail -> pass`)].join('\n'),
    );
    expect(out).toContain(
      `Newly passing (untested or blocked before, passes now): 1\n  ${IN_PROCESS}  untested -> pass`,
    );
    expect(out).not.toMatch(/Regressed/);
  });

  it('the fix undone: the same cases regressed, exit 1', async () => {
    const { code, out } = await diff(REFERENCE, TWIN);
    expect(code).toBe(1);
    expect(out).toContain('2 regressed, 0 fixed, 1 newly untested, 0 newly passing, 0 gone, 0 new;');
    expect(out).toContain(
      [
        'Regressed (did not fail before, fails now): 2',
        ...SECOND_CLOSE.map((n) => `  ${n}  pass -> fail`),
      ].join('\n'),
    );
    expect(out).toContain(`  ${IN_PROCESS}  pass -> untested`);
  });

  it('the same report twice: nothing changed, exit 0', async () => {
    const { code, out } = await diff(TWIN, TWIN);
    expect(code).toBe(0);
    expect(out).toContain(
      '0 regressed, 0 fixed, 0 newly untested, 0 newly passing, 0 gone, 0 new; 11 cases unchanged.',
    );
  });

  it('a case left out of the new run is gone, one not run before is new, never passed', async () => {
    const skipShut001 = variant('skip-shut-001.json', REFERENCE, (r) => {
      for (const q of r.requirements) {
        if (q.id === 'AHPX-SHUT-001') for (const c of q.cases) c.status = 'skipped';
      }
    });
    const withoutShut002 = variant('without-shut-002.json', TWIN, (r) => {
      r.requirements = r.requirements.filter((q) => q.id !== 'AHPX-SHUT-002');
    });
    const { code, out } = await diff(withoutShut002, skipShut001);
    expect(code).toBe(0);
    expect(out).toContain(
      '0 regressed, 2 fixed, 0 newly untested, 1 newly passing, 3 gone, 2 new; 3 cases unchanged.',
    );
    expect(out).toMatch(
      /Gone \(ran before, not run now\): 3\n( {2}AHPX-SHUT-001\/\S+ {2}pass -> not run\n){3}/,
    );
    expect(out).toMatch(
      /New \(not run before, runs now\): 2\n( {2}AHPX-SHUT-002\/\S+ {2}not run -> pass\n?){2}/,
    );
  });

  it('--reporter json: the same changes as one object', async () => {
    const { code, out } = await diff(REFERENCE, TWIN, '--reporter', 'json');
    expect(code).toBe(1);
    const body = JSON.parse(out) as Record<string, unknown>;
    expect(body).toMatchObject({
      role: 'harness',
      unchanged: 8,
      oldReport: REFERENCE,
      newReport: TWIN,
      changes: {
        regressed: SECOND_CLOSE.map((name) => ({ name, old: 'pass', new: 'fail' })),
        newlyUntested: [{ name: IN_PROCESS, old: 'pass', new: 'untested' }],
        fixed: [],
        newlyPassing: [],
        gone: [],
        new: [],
      },
    });
  });

  const backend = variant('backend.json', REFERENCE, (r) => {
    (r as { role: string }).role = 'backend';
  });
  writeFileSync(join(dir, 'broken.json'), '{"role": ');
  writeFileSync(join(dir, 'other.json'), '{"name": "not a report"}');
  const BAD: Record<string, { argv: string[]; says: string }> = {
    'a missing file': {
      argv: ['missing.json', REFERENCE],
      says: 'cannot read the report "missing.json" (ENOENT); give the report.json that a run with --reporter json wrote.',
    },
    'a file that is not JSON': {
      argv: [TWIN, 'broken.json'],
      says: '"broken.json" is not JSON; give the report.json that a run with --reporter json wrote.',
    },
    'JSON that is not a report': {
      argv: ['other.json', TWIN],
      says: '"other.json" is not an ahp-conformance report (tool: Invalid input: expected object, received undefined); give the report.json that a run with --reporter json wrote.',
    },
    'reports of different roles': {
      argv: [TWIN, backend],
      says: `"${TWIN}" is a harness report but "${backend}" is a backend report; compare two reports of the same role.`,
    },
    'one report only': {
      argv: [TWIN],
      says: 'give at least 2 reports (the old one, then the new one) (see --help).',
    },
    'three reports': {
      argv: [TWIN, REFERENCE, TWIN],
      says: `unexpected argument "${TWIN}"; diff compares two reports, the old one and then the new one.`,
    },
    'an unknown reporter': {
      argv: [TWIN, REFERENCE, '--reporter', 'html'],
      says: '--reporter must be console or json, not "html" (e.g. --reporter json).',
    },
  };
  for (const [title, c] of Object.entries(BAD)) {
    it(`bad input, ${title}: one sentence naming the file and the fix, exit 2`, async () => {
      const { code, out, err } = await diff(...c.argv);
      expect(code).toBe(2);
      expect(out).toBe('');
      expect(err).toBe(`ahp-conformance diff: ${c.says}\n`);
    });
  }
});
