import { relative } from 'node:path';
import type { RequirementLevel } from '../../protocol/requirements.js';
import type { CaseMeta } from '../../suites/common/index.js';
import { PACKAGE_ROOT } from '../runner/run-conformance.js';

/** Every conformance file that ships, by role; `list` shows them all. */
export const SUITE_GLOBS = {
  harness: 'suites/harness/**/*.conformance.ts',
  backend: 'suites/backend/**/*.conformance.ts',
} as const;

/** A case as declared, read without running it. */
export interface CollectedCase {
  name: string;
  /** The suite file, relative to the package root. */
  file: string;
  role: 'harness' | 'backend' | 'other';
  requirements: string[];
  level: RequirementLevel;
  transports: string[];
  profiles: string[];
  /** The mock behaviours the case uses, by kind, when its data names them. */
  behaviours?: string[];
}

/** The collection, or the errors that kept a suite file from being collected. */
export interface Collection {
  cases: CollectedCase[];
  errors: string[];
}

function roleOf(file: string): CollectedCase['role'] {
  if (file.startsWith('suites/harness/') || file.startsWith('suites/interop/')) return 'harness';
  if (file.startsWith('suites/backend/')) return 'backend';
  return 'other';
}

/** Suite files to collect and the values they are given through vitest's `provide`. */
export interface CaseSource {
  include: readonly string[];
  provide?: Record<string, unknown>;
}

/**
 * Collects cases through vitest's Node API: suite files are imported and their `test` calls
 * registered, but no case body runs, so listing and selection cost no target. The metadata comes
 * from the kit, which declares it at collection time. Every source becomes a vitest project of
 * one instance, so several sources cost one start.
 */
export async function collectSources(sources: readonly CaseSource[]): Promise<Collection> {
  const previousExitCode = process.exitCode;
  const projects = sources.map((source, i) => ({
    test: {
      name: `source-${i}`,
      include: [...source.include],
      provide: source.provide ?? {},
      // No case body runs, so files may share one module graph: without isolation a collection
      // imports the suite kit once instead of once per file (about 6x faster here).
      isolate: false,
      pool: 'threads' as const,
    },
  }));
  // Loaded on demand: vitest's Node API is heavy, and `validate` or `--help` never need it.
  const { createVitest } = await import('vitest/node');
  const vitest = await createVitest(
    'test',
    { config: false, root: PACKAGE_ROOT, watch: false, reporters: [] },
    { test: { projects } },
    {},
  );
  try {
    const specifications = await vitest.globTestSpecifications();
    if (specifications.length === 0) return { cases: [], errors: [] };
    const result = await vitest.collect();
    const cases: CollectedCase[] = [];
    const seen = new Set<string>();
    const errors = result.unhandledErrors.map((e) => String((e as Error).message ?? e));
    for (const module of result.testModules) {
      const file = relative(PACKAGE_ROOT, module.moduleId);
      for (const e of module.errors()) errors.push(`${file}: ${e.message ?? ''}`);
      for (const testCase of module.children.allTests()) {
        // The same file under several sources may declare the same case more than once.
        const key = `${file}\0${testCase.fullName}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const meta: CaseMeta | undefined = testCase.meta().ahp;
        cases.push({
          name: testCase.fullName,
          file,
          role: roleOf(file),
          requirements: meta?.requirements ?? [],
          level: meta?.level ?? 'MUST',
          transports: meta?.transports ?? [],
          profiles: meta?.profiles ?? [],
          ...(meta?.behaviours === undefined ? {} : { behaviours: meta.behaviours }),
        });
      }
    }
    return { cases, errors: [...new Set(errors)] };
  } finally {
    await vitest.close();
    // vitest may set process.exitCode on its own; the CLI decides the exit code.
    process.exitCode = previousExitCode;
  }
}

/** Collects the cases of one set of suite files. */
export function collectCases(
  include: readonly string[],
  provide: Record<string, unknown> = {},
): Promise<Collection> {
  return collectSources([{ include, provide }]);
}
