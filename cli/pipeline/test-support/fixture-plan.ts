import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCommandLine } from '../../options/resolve.js';
import { suiteSettings, type SuiteRunPlan } from '../suite-run.js';

/** The pipeline's own fixture suite: a handful of cases with known verdicts, in two files. */
export const FIXTURE_INCLUDE = ['cli/pipeline/test-fixtures/*.conformance.ts'];
/** Each run starts vitest and a worker: seconds on a loaded 2-core machine, so be generous. */
export const SLOW = { timeout: 180_000 };

/** The known-failures file (kf.txt): one tolerated line and one stale (its only case passes). */
export const FIXTURE_BASELINE = [
  'AHP-CORE-004/fixture/fails # identity bug, tracked',
  'AHP-FAIL-001 # listed, but it passes: stale',
].join('\n');

/**
 * A run of the fixture suite from a command line, in a fresh directory holding kf.txt (also the
 * fixtures' counter directory); the seed is 77 unless `args` give one.
 */
export async function fixturePlan(args: string[], baseline = FIXTURE_BASELINE): Promise<SuiteRunPlan> {
  const cwd = mkdtempSync(join(tmpdir(), 'ahp-pipeline-'));
  writeFileSync(join(cwd, 'kf.txt'), baseline);
  const { options } = await parseCommandLine(args, {}, { cwd, randomSeed: () => 77 });
  return {
    role: 'harness',
    include: FIXTURE_INCLUDE,
    provide: { ahpSettings: suiteSettings(options), pipelineCounterDir: cwd },
    options,
    target: { kind: 'fixture' },
    claim: { role: 'harness', bindings: ['stdio'], profiles: ['base'] },
    version: '0.1.0',
    // A quiet machine, whatever the test machine is doing: tests that need another say so.
    measureMachine: () => Promise.resolve(1),
  };
}
