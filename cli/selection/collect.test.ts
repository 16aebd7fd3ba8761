import { describe, expect, it } from 'vitest';
import { collectCases } from './collect.js';
import { namePatternFor, selectCases } from './select.js';
import { runConformance } from '../runner/run-conformance.js';

const FIXTURE = 'cli/selection/test-fixtures/*.conformance.ts';

describe('collectCases', () => {
  it('reads every case with the metadata its kit declared', async () => {
    const { cases, errors } = await collectCases([FIXTURE]);
    expect(errors).toEqual([]);
    expect(cases.map((c) => [c.name, c.requirements, c.level, c.transports])).toEqual([
      ['AHP-FAIL-001/transport:http/policy:fail-closed/hang', ['AHP-FAIL-001'], 'MUST', ['http']],
      [
        'AHP-FAIL-002/transport:stdio-persistent/deadline',
        ['AHP-FAIL-002', 'AHPX-DL-001'],
        'MUST',
        ['stdio-persistent'],
      ],
      ['grouped > AHPX-SYN-002/generic-reason', ['AHPX-SYN-002'], 'SHOULD', ['none']],
    ]);
    expect(cases[0]).toMatchObject({
      file: 'cli/selection/test-fixtures/sample.conformance.ts',
      role: 'other',
    });
  });

  it('returns nothing for a glob without files', async () => {
    expect(await collectCases(['cli/selection/test-fixtures/none-*.conformance.ts'])).toEqual({
      cases: [],
      errors: [],
    });
  });

  it('drives a run of exactly the selected cases through the name pattern', async () => {
    const { cases } = await collectCases([FIXTURE]);
    const chosen = selectCases(cases, { only: ['AHPX-SYN-002', 'AHP-FAIL-001'], skip: [] });
    const run = await runConformance({
      include: [FIXTURE],
      provide: {},
      testNamePattern: namePatternFor(chosen.map((c) => c.name)),
    });
    expect(run.cases.filter((c) => c.status === 'pass').map((c) => c.name)).toEqual([
      'AHP-FAIL-001/transport:http/policy:fail-closed/hang',
      'grouped > AHPX-SYN-002/generic-reason',
    ]);
    expect(run.cases.find((c) => c.name.startsWith('AHP-FAIL-002'))?.status).toBe('skipped');
  });
});
