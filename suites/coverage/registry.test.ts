import { describe, expect, it } from 'vitest';
import { REQUIREMENTS, requirementById } from '../../protocol/requirements.js';
import type { Requirement } from '../../protocol/requirements.js';
import { buildRegistry, coverageProblems, harnessTwinProof, backendTwinProof, type RegistryInput } from './registry.js';

const req = (id: string, role: Requirement['role'] = 'harness'): Requirement => ({
  id,
  level: 'MUST',
  summary: `summary of ${id}`,
  source: 'ahp',
  reference: `ahp: spec/draft/requirements.json ${id}`,
  location: requirementById(id)?.location ?? { document: 'spec/draft/base/index.md', anchor: id },
  profiles: ['base'],
  role,
});

const FILE = 'suites/harness/families/core.conformance.ts';

function input(overrides: Partial<RegistryInput> = {}): RegistryInput {
  return {
    requirements: [req('AHP-CORE-001'), req('AHP-SEC-001'), req('AHP-RPC-001', 'both')],
    cases: [
      { name: 'AHP-CORE-001/claim', file: FILE, role: 'harness', requirements: ['AHP-CORE-001'], transports: ['none'] },
      { name: 'AHP-RPC-001/x', file: 'suites/backend/backend.conformance.ts', role: 'backend', requirements: ['AHP-RPC-001'], transports: ['http'] },
    ],
    twins: [
      harnessTwinProof({ twin: 'claim-missing', defect: 'leaves the claim out', files: [FILE], pattern: 'AHP-CORE-00[12]', breaks: ['AHP-CORE-001'] }),
      backendTwinProof({ example: 'twins/wrong-id', binding: 'http', breaks: ['AHP-RPC-001'] }),
    ],
    negatives: {},
    exclusions: { 'AHP-SEC-001': { kind: 'pending', reason: 'not yet' } },
    ...overrides,
  };
}

describe('coverage registry', () => {
  it('keys every requirement with its cases, proofs, sentence or exclusion', () => {
    const registry = buildRegistry(input());
    expect(registry.map((e) => e.id)).toEqual(['AHP-CORE-001', 'AHP-SEC-001', 'AHP-RPC-001']);
    expect(registry[0]).toMatchObject({
      cases: { harness: ['AHP-CORE-001/claim'], backend: [] },
      twins: { harness: ['claim-missing'], backend: [] },
      sentence: { document: 'spec/draft/base/index.md', section: 'Conformance profiles', anchor: 'AHP-CORE-001' },
    });
    expect(registry[1]?.excluded).toEqual({ kind: 'pending', reason: 'not yet' });
    expect(registry[2]?.twins.backend).toEqual(['twins/wrong-id']);
    expect(coverageProblems(input())).toEqual([]);
  });

  it('fails an ID with neither a case nor an exclusion', () => {
    expect(coverageProblems(input({ exclusions: {} }))).toEqual([
      'AHP-SEC-001 has neither a case nor an exclusion',
    ]);
  });

  it('fails cases without a proof on their side, and accepts an in-test negative', () => {
    const noTwins = input({ twins: [] });
    expect(coverageProblems(noTwins)).toEqual([
      'AHP-CORE-001 has harness cases but no proof: no harness twin must fail it and no in-test negative names it',
      'AHP-RPC-001 has backend cases but no proof: no backend twin must fail it',
    ]);
    const negatives = { 'AHP-CORE-001': [{ file: 'x.test.ts', shows: 'a bad claim fails' }] };
    expect(coverageProblems({ ...noTwins, negatives })).toEqual([
      'AHP-RPC-001 has backend cases but no proof: no backend twin must fail it',
    ]);
  });

  it('fails a twin whose selection holds no case of what it is said to break', () => {
    const twins = [
      harnessTwinProof({ twin: 'claim-missing', defect: 'leaves the claim out', files: [FILE], pattern: 'AHP-FAIL', breaks: ['AHP-CORE-001'] }),
      backendTwinProof({ example: 'twins/wrong-id', binding: 'stdio-persistent', breaks: ['AHP-RPC-001', 'AHP-NOPE-001'] }),
    ];
    expect(coverageProblems(input({ twins }))).toEqual([
      `harness twin "claim-missing" is said to break AHP-CORE-001, but its selection (${FILE} /AHP-FAIL/) holds no case of it`,
      'backend twin "twins/wrong-id" is said to break AHP-RPC-001, but its selection (backend over stdio-persistent) holds no case of it',
      'backend twin "twins/wrong-id" is said to break AHP-NOPE-001, which is no catalogue ID',
    ]);
  });

  it('fails an exclusion of an ID that has cases, and a proofs entry for an unknown ID', () => {
    const exclusions = {
      'AHP-SEC-001': { kind: 'pending' as const, reason: 'not yet' },
      'AHP-CORE-001': { kind: 'claim-level' as const, reason: 'claim' },
      'AHPX-NOPE-001': { kind: 'pending' as const, reason: 'typo' },
    };
    expect(coverageProblems(input({ exclusions }))).toEqual([
      'AHP-CORE-001 has 1 case(s) but is excluded: remove its exclusion',
      'the proofs table names AHPX-NOPE-001, which is no catalogue ID',
    ]);
  });

  it('locates every AHP ID of the catalogue in the draft, and every AHPX ID in the seed', () => {
    for (const e of buildRegistry(input({ requirements: REQUIREMENTS, cases: [] }))) {
      expect(e.sentence.document, e.id).toMatch(e.id.startsWith('AHPX-') ? /^seed: / : /^spec\/draft\//);
      expect(e.sentence.anchor.length, e.id).toBeGreaterThan(5);
    }
  });
});
