import { describe, expect, it } from 'vitest';
import { BEHAVIOUR_TRANSPORTS } from '../../mock-backend/index.js';
import { REQUIREMENTS, requirementById } from '../../protocol/requirements.js';
import { TWINS } from '../../fixtures/harnesses/twins/index.js';
import { BROKEN_HTTP_RUNS, BROKEN_STDIO_RUNS } from '../backend/self-test-runs.js';
import { behaviourKinds } from '../harness/kit/behaviour-kinds.js';
import { backendTwinSource, statedDefect, statedIds } from './backend-twin-defect.js';
import { requirementKnowledge } from './knowledge.js';
import { catalogueTwins, defaultRegistryInput } from './registry.js';

describe('a requirement’s row', () => {
  it('joins the catalogue sentence, the cases, the twins and the behaviours of one ID', () => {
    const input = defaultRegistryInput([
      {
        name: 'AHPX-SYN-002/x',
        file: 'suites/harness/families/synthetic.conformance.ts',
        role: 'harness',
        requirements: ['AHPX-SYN-002', 'AHPX-SYN-003'],
        transports: ['http'],
        behaviours: ['rpc-error', 'hang'],
      },
      { name: 'AHP-FAIL-001/y', file: 'f', role: 'harness', requirements: ['AHP-FAIL-001'], transports: ['http'] },
    ]);
    const row = requirementKnowledge('AHPX-SYN-002', input);
    expect(row).toMatchObject({
      id: 'AHPX-SYN-002',
      level: 'SHOULD',
      sentence: requirementById('AHPX-SYN-002')?.summary,
      cases: { harness: ['AHPX-SYN-002/x'], backend: [] },
      behaviours: ['hang', 'rpc-error'],
    });
    expect(row?.twins.map((t) => [t.twin, t.defect])).toEqual([
      ['reason-leaks', TWINS['reason-leaks']?.description],
    ]);
    expect(requirementKnowledge('AHPX-NOPE-001', input)).toBeUndefined();
  });
});

describe('what the twins declare about themselves', () => {
  it('every harness twin is judged somewhere, and breaks only catalogue IDs', () => {
    for (const [name, defect] of Object.entries(TWINS)) {
      expect(defect.judgedBy.length, name).toBeGreaterThan(0);
      expect(defect.description.length, name).toBeGreaterThan(10);
      for (const judging of defect.judgedBy) {
        expect(judging.files.length, name).toBeGreaterThan(0);
        for (const id of judging.breaks) expect(requirementById(id), `${name} breaks ${id}`).toBeDefined();
      }
    }
  });

  it('every broken backend twin opens with the defect it plants, naming the IDs its run must fail', () => {
    for (const run of [...BROKEN_STDIO_RUNS, ...BROKEN_HTTP_RUNS]) {
      const source = backendTwinSource(run.example);
      expect(statedDefect(source).length, run.example).toBeGreaterThan(10);
      if (run.breaks.length > 0) expect(statedIds(source), run.example).toEqual(expect.arrayContaining(run.breaks));
    }
    expect(statedDefect('#!/usr/bin/env node\n// Defect (AHP-RPC-001): the id\n// is wrong.\nconst x = 1;')).toBe(
      'the id is wrong.',
    );
    expect(statedIds('// Defect (AHP-VER-001, AHP-CORE-003, MUST): x')).toEqual(['AHP-VER-001', 'AHP-CORE-003']);
  });

  it('every proof carries its defect, so explain never prints a twin without one', () => {
    for (const proof of catalogueTwins()) expect(proof.defect.length, proof.twin).toBeGreaterThan(10);
  });
});

describe('behaviour kinds', () => {
  it('walks a behaviour into the kinds it wraps, each once', () => {
    expect(
      behaviourKinds({
        kind: 'sequence',
        steps: [{ kind: 'rpc-error', code: -32000 }, { kind: 'delay', ms: 5, then: { kind: 'respond' } }],
        then: { kind: 'exit', code: 1, reply: { kind: 'respond' } },
      }),
    ).toEqual(['sequence', 'rpc-error', 'delay', 'respond', 'exit']);
    expect(
      behaviourKinds({ kind: 'probability', p: 0.5, behaviour: { kind: 'hang' }, otherwise: { kind: 'reset' } }),
    ).toEqual(['probability', 'hang', 'reset']);
  });

  it('names only kinds the mock knows', () => {
    const known = new Set(Object.keys(BEHAVIOUR_TRANSPORTS));
    expect(known.has('hang')).toBe(true);
    for (const kind of behaviourKinds({ kind: 'signal', signal: 'SIGKILL', reply: { kind: 'hang' } })) {
      expect(known.has(kind), kind).toBe(true);
    }
  });

  it('keeps one row per catalogue ID', () => {
    const input = defaultRegistryInput([]);
    for (const r of REQUIREMENTS) expect(requirementKnowledge(r.id, input)?.id).toBe(r.id);
  });
});
