import { describe, expect, it } from 'vitest';
import { interopCoverage, matchesPattern, scenarioKeys } from './coverage.js';
import type { InteropSet } from './load.js';
import { parseInteropFile } from './load.js';
import { interceptScenario, scenarioFile } from './test-support/samples.js';

const CASES = [
  'AHP-EDIT-001/atomic/policy:fail-open/bad-member:unknown-field/the-valid-edit-is-not-applied',
  'AHP-DEC-003/host-deny-and-ask-survive-an-empty-effect-list',
  'AHPX-FAIL-003/transport:http/registration:intercept-without-failure-policy-is-refused',
];

function sets(): InteropSet[] {
  const intercept = parseInteropFile(
    'scenarios.json',
    'scenarios.json',
    scenarioFile(
      interceptScenario('covered', { tags: ['no-effect'] }),
      interceptScenario('new-topic', { tags: ['brand-new-tag'] }),
    ),
  );
  const registration = {
    op: 'register',
    registration: { protocolVersion: 'draft', hooks: [] },
    requirements: [],
    context: { interactive: true, environment: {} },
  };
  const catalogue = parseInteropFile(
    'catalogue-scenarios.json',
    'catalogue-scenarios.json',
    scenarioFile(
      {
        id: 'registration-explicit-failure-policy-required',
        category: 'registration',
        steps: [registration],
        expected: {},
        requests: {},
        responses: {},
      },
      {
        id: 'parent-late',
        category: 'lineage',
        steps: [{ op: 'notify' }],
        expected: {},
        requests: {},
        responses: {},
      },
    ),
  );
  const lifecycle = parseInteropFile(
    'lifecycle-scenarios.json',
    'lifecycle-scenarios.json',
    scenarioFile(
      {
        id: 'cancel-early',
        requests: {},
        responses: {},
        steps: [{ op: 'send' }, { op: 'cancel' }],
        expected: {},
      },
      { id: 'staged', requests: {}, responses: {}, steps: [{ op: 'accept' }], expected: {} },
    ),
  );
  return [intercept, catalogue, lifecycle];
}

describe('matchesPattern', () => {
  it('matches a star across any run of characters and nothing else', () => {
    expect(matchesPattern('AHP-DEC-003/*', 'AHP-DEC-003/a/b')).toBe(true);
    expect(matchesPattern('AHP-FAIL-001/transport:*/x', 'AHP-FAIL-001/transport:http/x')).toBe(true);
    expect(matchesPattern('AHP-DEC-003/*', 'AHP-DEC-0030/a')).toBe(false);
    expect(matchesPattern('a.b', 'axb')).toBe(false);
  });
});

describe('interopCoverage', () => {
  it('gives every scenario the cases of ours that cover it, or a written reason', () => {
    const coverage = interopCoverage(sets(), CASES);
    expect(coverage.map((c) => [c.id, c.cases.length > 0 ? c.cases : c.reason?.slice(0, 20)])).toEqual([
      ['covered', ['AHP-DEC-003/host-deny-and-ask-survive-an-empty-effect-list']],
      ['new-topic', 'no case of ours judg'],
      [
        'registration-explicit-failure-policy-required',
        ['AHPX-FAIL-003/transport:http/registration:intercept-without-failure-policy-is-refused'],
      ],
      ['parent-late', 'no case of ours comp'],
      ['cancel-early', 'no case of ours hold'],
      ['staged', 'no case of ours hold'],
    ]);
    for (const c of coverage) expect(c.cases.length > 0 || (c.reason ?? '').length > 0).toBe(true);
  });

  it('covers the refused registrations with the registration-load cases of their rule', () => {
    const catalogue = parseInteropFile(
      'catalogue-scenarios.json',
      'catalogue-scenarios.json',
      scenarioFile({
        id: 'registration-duplicate-backend',
        category: 'registration',
        steps: [{ op: 'register', registration: {}, requirements: [], context: {} }],
        expected: {},
        requests: {},
        responses: {},
      }),
    );
    const loadCase = 'AHP-REG-001/registration:duplicate-backend-id-is-refused';
    expect(interopCoverage([catalogue], [...CASES, loadCase])[0]?.cases).toEqual([loadCase]);
  });

  it('keys a scenario by what it is about', () => {
    const [intercept, catalogue, lifecycle] = sets() as [InteropSet, InteropSet, InteropSet];
    expect(scenarioKeys('scenarios', intercept.scenarios[0] as InteropSet['scenarios'][number])).toEqual([
      'tag:no-effect',
    ]);
    expect(
      scenarioKeys('catalogue-scenarios', catalogue.scenarios[1] as InteropSet['scenarios'][number]),
    ).toEqual(['catalogue:lineage']);
    expect(
      scenarioKeys('lifecycle-scenarios', lifecycle.scenarios[0] as InteropSet['scenarios'][number]),
    ).toEqual(['lifecycle:cancel', 'lifecycle:cancel-early']);
  });

  it('covers a catalogue row named for an event by every case sending that event', () => {
    const row = {
      id: 'catalogue:tool.after',
      category: 'execution',
      requests: {},
      responses: {},
      steps: [],
      expected: {},
    };
    const set = { set: 'catalogue-scenarios', scenarios: [row] } as unknown as InteropSet;
    const [covered] = interopCoverage(
      [set],
      [
        'AHP-RPC-001/event:tool.after/observed-event-valid-against-its-schema-on-the-wire',
        'AHP-RPC-001/event:tool.before/event-valid-against-its-schema-on-the-wire',
      ],
    );
    expect(covered?.cases).toEqual([
      'AHP-RPC-001/event:tool.after/observed-event-valid-against-its-schema-on-the-wire',
    ]);
  });
});
