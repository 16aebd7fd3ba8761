import { describe, expect, it } from 'vitest';
import { EXIT, UsageError } from '../io.js';
import { fakeIo } from '../test-support/fake-io.js';
import { collectCases } from '../selection/collect.js';
import { createListCommand, listCommand } from './list.js';

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
    expect(r.out).toContain('other suite: 3 case(s)');
    expect(r.out).toMatch(
      /AHP-FAIL-002\/transport:stdio-persistent\/deadline\s+AHP-FAIL-002,AHPX-DL-001\s+MUST\s+stdio-persistent/,
    );
    expect(r.out).toMatch(/grouped > AHPX-SYN-002\/generic-reason\s+AHPX-SYN-002\s+SHOULD\s+none/);
    expect(r.out).toContain('3 case(s) over 4 requirement(s).');
    expect(r.out).toMatch(/No case yet for: AHP-CORE-001, /);
  });

  it('names requirements without a case only when nothing was left out by --only/--skip', async () => {
    const r = await runList(['--only', 'AHP-FAIL-002']);
    expect(r.out).toContain('1 case(s) over 2 requirement(s).');
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
  // One vitest start collecting every suite file; generous for a loaded 2-core machine.
  it(
    'lists harness and backend cases, each named after its first requirement ID',
    { timeout: 120_000 },
    async () => {
      const f = fakeIo(['--json']);
      expect(await listCommand.run(['--json'], f.io)).toBe(EXIT.ok);
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
    },
  );
});
