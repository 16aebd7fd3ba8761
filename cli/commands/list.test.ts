import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REQUIREMENTS } from '../../protocol/requirements.js';
import type { CoverageEntry } from '../../suites/coverage/index.js';
import { EXIT, UsageError } from '../io.js';
import { PACKAGE_ROOT } from '../runner/run-conformance.js';
import { fakeIo } from '../test-support/fake-io.js';
import { collectCases, type Collection } from '../selection/collect.js';
import { collectAllSuites, createListCommand } from './list.js';
import { INTEROP_COVERAGE, matchesPattern } from '../../suites/interop/index.js';

const list = createListCommand(() => collectCases(['cli/selection/test-fixtures/*.conformance.ts']));

async function runList(args: string[]) {
  const f = fakeIo(args);
  const code = await list.run(args, f.io);
  return { code, out: f.out(), err: f.err() };
}

describe('list command', () => {
  it('prints every case with its requirement IDs, level and transports', async () => {
    const r = await runList([]);
    expect(r.code).toBe(EXIT.ok);
    expect(r.out).toContain('other suite: 3 cases');
    expect(r.out).toMatch(
      /AHP-FAIL-002\/transport:stdio-persistent\/deadline\s+AHP-FAIL-002,AHPX-DL-001\s+MUST\s+stdio-persistent/,
    );
    expect(r.out).toMatch(/grouped > AHPX-SYN-002\/generic-reason\s+AHPX-SYN-002\s+SHOULD\s+none/);
    expect(r.out).toContain('3 cases over 4 requirements.');
    expect(r.out).toMatch(/No case yet for: AHP-CORE-001, /);
  });

  it('names requirements without a case only when nothing was left out by --only/--skip', async () => {
    const r = await runList(['--only', 'AHP-FAIL-002']);
    expect(r.out).toContain('1 case over 2 requirements.');
    expect(r.out).not.toContain('No case yet');
  });

  it('prints JSON with --json, and previews a selection', async () => {
    const r = await runList([
      '--json',
      '--only',
      'AHP-FAIL-002',
      'AHPX-SYN-002',
      '--skip',
      '**/generic-reason',
    ]);
    const parsed = JSON.parse(r.out) as {
      cases: { name: string; requirements: string[]; level: string; transports: string[]; file: string }[];
      requirements: { id: string; cases: number }[];
    };
    expect(parsed.cases).toEqual([
      {
        name: 'AHP-FAIL-002/transport:stdio-persistent/deadline',
        file: 'cli/selection/test-fixtures/sample.conformance.ts',
        role: 'other',
        requirements: ['AHP-FAIL-002', 'AHPX-DL-001'],
        level: 'MUST',
        transports: ['stdio-persistent'],
        profiles: ['tool-interception'],
      },
    ]);
    expect(parsed.requirements.find((q) => q.id === 'AHPX-DL-001')?.cases).toBe(1);
    expect(parsed.requirements.find((q) => q.id === 'AHP-FAIL-001')?.cases).toBe(0);
  });

  it('refuses a selector that matches no case', async () => {
    await expect(runList(['--only', 'AHP-HTTP-001'])).rejects.toThrow(UsageError);
  });
});

describe('list over the suites that ship', () => {
  // One vitest start collecting every suite file, shared by the tests below; generous for a
  // loaded 2-core machine.
  let collection: Collection = { cases: [], errors: [] };
  beforeAll(async () => {
    collection = await collectAllSuites();
  }, 120_000);
  const shipped = createListCommand(() => Promise.resolve(collection));

  it('lists harness and backend cases, each named after its first requirement ID', async () => {
    const f = fakeIo(['--json']);
    expect(await shipped.run(['--json'], f.io)).toBe(EXIT.ok);
    const { cases } = JSON.parse(f.out()) as {
      cases: { name: string; role: string; requirements: string[]; level: string; transports: string[] }[];
    };
    expect(cases.some((c) => c.role === 'harness')).toBe(true);
    expect(cases.some((c) => c.role === 'backend')).toBe(true);
    for (const c of cases) {
      expect(
        c.name
          .split(' > ')
          .pop()
          ?.startsWith(c.requirements[0] ?? '?'),
      ).toBe(true);
      expect(['MUST', 'MUST NOT', 'SHOULD', 'SHOULD NOT', 'MAY']).toContain(c.level);
      expect(c.transports.length).toBeGreaterThan(0);
    }
    // The backend suite is collected for every binding it can be run over.
    const backendBindings = new Set(cases.filter((c) => c.role === 'backend').flatMap((c) => c.transports));
    expect([...backendBindings].sort()).toEqual(['http', 'stdio-per_event', 'stdio-persistent']);
  });

  it('names in the interop coverage table only cases that ship', () => {
    const harness = collection.cases.filter((c) => c.role === 'harness').map((c) => c.name);
    const unmatched = Object.entries(INTEROP_COVERAGE).flatMap(([key, patterns]) =>
      patterns.filter((p) => !harness.some((n) => matchesPattern(p, n))).map((p) => `${key}: ${p}`),
    );
    expect(unmatched).toEqual([]);
  });

  it('covers every requirement ID: cases with proofs, or an exclusion with its reason', async () => {
    const f = fakeIo(['--coverage', '--json']);
    const code = await shipped.run(['--coverage', '--json'], f.io);
    const { requirements, problems } = JSON.parse(f.out()) as {
      requirements: CoverageEntry[];
      problems: string[];
    };
    expect(problems).toEqual([]);
    expect(code).toBe(EXIT.ok);
    expect(requirements.map((e) => e.id)).toEqual(REQUIREMENTS.map((r) => r.id));
    for (const e of requirements) {
      const cases = e.cases.harness.length + e.cases.backend.length;
      const proofs = e.twins.harness.length + e.twins.backend.length + e.negatives.length;
      if (e.excluded) expect(e.excluded.reason.length, e.id).toBeGreaterThan(10);
      else
        expect({ id: e.id, cases: cases > 0, proofs: proofs > 0 }).toEqual({
          id: e.id,
          cases: true,
          proofs: true,
        });
    }
    for (const file of requirements.flatMap((e) => e.negatives.map((n) => n.file))) {
      expect(existsSync(join(PACKAGE_ROOT, file)), file).toBe(true);
    }
  });

  it('prints the matrix for people', async () => {
    const f = fakeIo(['--coverage']);
    expect(await shipped.run(['--coverage'], f.io)).toBe(EXIT.ok);
    expect(f.out()).toMatch(/^ID\s+level\s+cases\s+proofs\s+excluded$/m);
    expect(f.out()).toMatch(/^AHP-FAIL-001\s+MUST\s+\d+ harness\s+harness:fail-open-always/m);
    expect(f.out()).toMatch(/^AHP-DEC-002\s+MUST\s+\d+ harness\s+harness:deny-still-executes/m);
    expect(f.out()).toContain('Every requirement has cases and proofs, or an exclusion with its reason.');
  });
});
