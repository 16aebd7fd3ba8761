// A second conformance file for the pipeline tests: its beforeAll leaves a mark, so a test can
// tell whether a run started this file at all (collection runs no hooks).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, inject } from 'vitest';
import { conformanceCase } from '../../../suites/common/case.js';

const counterDir = (inject as (key: string) => unknown)('pipelineCounterDir') as string | undefined;

beforeAll(() => {
  if (counterDir !== undefined) writeFileSync(join(counterDir, 'other-started'), '');
});

conformanceCase({ name: 'AHP-STDIO-001/fixture/other-file', requirements: ['AHP-STDIO-001'] }, () => {});
