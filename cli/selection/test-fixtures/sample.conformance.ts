// A tiny conformance file for the collection and runner tests of cli/: never part of a real run.
import { describe, expect } from 'vitest';
import { conformanceCase } from '../../../suites/common/case.js';

conformanceCase(
  {
    name: 'AHP-FAIL-001/transport:http/policy:fail-closed/hang',
    requirements: ['AHP-FAIL-001'],
    transports: ['http'],
  },
  () => {
    expect(1 + 1).toBe(2);
  },
);

conformanceCase(
  {
    name: 'AHP-FAIL-002/transport:stdio-persistent/deadline',
    requirements: ['AHP-FAIL-002', 'AHPX-DL-001'],
    transports: ['stdio-persistent'],
  },
  () => {
    expect('deadline').toContain('dead');
  },
);

describe('grouped', () => {
  conformanceCase(
    { name: 'AHPX-SYN-002/generic-reason', requirements: ['AHPX-SYN-002'], transports: ['none'] },
    () => {
      expect(true).toBe(true);
    },
  );
});
