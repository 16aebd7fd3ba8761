import { describe, expect, it } from 'vitest';
import { requirementById } from '../../protocol/requirements.js';
import type { RequirementKnowledge } from '../../suites/coverage/index.js';
import { EXIT, UsageError } from '../io.js';
import type { Collection } from '../selection/collect.js';
import { fakeIo } from '../test-support/fake-io.js';
import { createExplainCommand, requirementId } from './explain.js';

const COLLECTION: Collection = {
  errors: [],
  cases: [
    {
      name: 'AHP-DEC-002/accepted-deny-is-not-executed',
      file: 'suites/harness/families/core.conformance.ts',
      role: 'harness',
      requirements: ['AHP-DEC-002'],
      level: 'MUST',
      transports: ['http'],
      profiles: ['tool-interception'],
      behaviours: ['deny', 'respond'],
    },
    {
      name: 'AHP-DEC-002/another',
      file: 'suites/harness/families/core.conformance.ts',
      role: 'harness',
      requirements: ['AHP-DEC-002', 'AHP-SEC-001'],
      level: 'MUST',
      transports: ['http'],
      profiles: ['tool-interception'],
      behaviours: ['delay', 'deny'],
    },
  ],
};

const explain = createExplainCommand(() => Promise.resolve(COLLECTION));

async function run(args: string[]) {
  const f = fakeIo(args);
  const code = await explain.run(args, f.io);
  return { code, out: f.out() };
}

describe('explain command', () => {
  it('prints the sentence, where it stands, its cases, its twins with their defects and its behaviours', async () => {
    const { code, out } = await run(['AHP-DEC-002']);
    expect(code).toBe(EXIT.ok);
    expect(out).toContain('AHP-DEC-002 (MUST; binds the harness; profiles: tool-interception)');
    expect(out).toContain(requirementById('AHP-DEC-002')?.summary);
    expect(out).toContain('spec/draft/server/tool-interception.md § `deny`, anchor "AHP-DEC-002"');
    expect(out).toMatch(
      /Harness cases \(2\):\n {2}AHP-DEC-002\/accepted-deny-is-not-executed\n {2}AHP-DEC-002\/another/,
    );
    expect(out).toContain('Backend cases: none');
    expect(out).toMatch(
      /harness:deny-still-executes: runs the operation even after an accepted deny \(judged on /,
    );
    expect(out).toContain('Mock behaviours its cases use: delay, deny, respond');
  });

  it('says why no mock behaviour is listed: no harness case, or cases that name none', async () => {
    expect((await run(['AHP-STDIO-001'])).out).toContain(
      'Mock behaviours its cases use: none (no harness case; only harness cases run the mock)',
    );
    const unnamed = createExplainCommand(() =>
      Promise.resolve({ errors: [], cases: COLLECTION.cases.map(({ behaviours: _, ...c }) => c) }),
    );
    const f = fakeIo(['AHP-DEC-002']);
    await unnamed.run(['AHP-DEC-002'], f.io);
    expect(f.out()).toContain(
      'Mock behaviours its cases use: not named (its cases script their backends at run time)',
    );
  });

  it('gives the same row as JSON, backend twins with the defect their own comment states', async () => {
    const { code, out } = await run(['--json', 'ahp-rpc-001']);
    expect(code).toBe(EXIT.ok);
    const k = JSON.parse(out) as RequirementKnowledge;
    expect(k).toMatchObject({ id: 'AHP-RPC-001', level: 'MUST', role: 'both', behaviours: [] });
    expect(k.location).toEqual({
      document: 'spec/draft/base/versioning.md',
      section: 'JSON-RPC',
      anchor: 'AHP-RPC-001',
    });
    expect(k.twins).toContainEqual({
      side: 'backend',
      twin: 'twins/wrong-id',
      defect: 'the reply id is not the request id.',
      selection: 'backend over http',
    });
  });

  it('places an AHPX ID at its seed sentence', async () => {
    const k = JSON.parse((await run(['AHPX-SYN-002', '--json'])).out) as RequirementKnowledge;
    expect(k.location).toEqual({
      document: 'seed: Synthetic denial ¶1',
      anchor: 'SHOULD present a generic local reason',
    });
    expect(k.level).toBe('SHOULD');
    expect(k.twins.map((t) => t.twin)).toEqual(['reason-leaks']);
  });

  it('refuses an unknown ID with the closest known one', () => {
    expect(requirementId('ahpx-syn-001')).toBe('AHPX-SYN-001');
    expect(() => requirementId('AHPX-SYN-01')).toThrow(UsageError);
    expect(() => requirementId('AHPX-SYN-01')).toThrow(
      'there is no requirement "AHPX-SYN-01"; did you mean AHPX-SYN-001?',
    );
  });
});
