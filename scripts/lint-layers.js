// The layers of the package and the imports each may make (import-x's no-restricted-paths, on
// resolved paths): cli -> suites (each suite's index.ts only) -> mock-backend | reference-harness
// -> protocol. The two products import only protocol/ and never each other; protocol/ imports
// nothing of ours; suites/ never imports cli/. scripts/ may import anything; fixtures/ is data.
import { join } from 'node:path';

/** Every top-level folder of ours that code could import. */
const OURS = [
  'bin',
  'cli',
  'dist',
  'docs',
  'fixtures',
  'mock-backend',
  'protocol',
  'reference-harness',
  'scripts',
  'suites',
];

/** Tests and their support files, which may also reach the suites' test support. */
export const CLI_TEST_FILES = ['cli/**/*.test.ts', 'cli/**/test-support/**', 'cli/self-test/**'];
/**
 * Suite files used as fixtures of the CLI's own tests: they author cases like any suite file
 * (with suites/common/case.ts), so they are held to the suites' rule instead.
 */
const CLI_SUITE_FIXTURES = ['cli/**/test-fixtures/**'];

const zones = (root, list) => ({
  'import-x/no-restricted-paths': ['error', { basePath: root, zones: list }],
});

/** Only these folders of ours, for the files of `target`. */
function onlyFrom(target, allowed, message) {
  return { target, from: OURS.filter((f) => f !== target && !allowed.includes(f)), message };
}

/** The suites' public entries, and (for tests) their test support. */
function suitesExcept(root, tests) {
  const entries = [join(root, 'suites/*/index.ts')];
  if (!tests) return entries;
  return [
    ...entries,
    join(root, 'suites/**/test-support.ts'),
    join(root, 'suites/**/test-support/**'),
    join(root, 'suites/**/test-drivers/**'),
  ];
}

const THROUGH_INDEX = 'cli/ reaches a suite only through its public entry, suites/<suite>/index.ts.';

/** The config blocks that enforce the layers; `root` is the package root. */
export function layerBlocks(root) {
  return [
    {
      files: ['protocol/**/*.ts'],
      rules: zones(root, [onlyFrom('protocol', [], 'protocol/ imports nothing of ours.')]),
    },
    {
      files: ['mock-backend/**/*.ts'],
      rules: zones(root, [onlyFrom('mock-backend', ['protocol'], 'mock-backend/ imports only protocol/.')]),
    },
    {
      files: ['reference-harness/**/*.ts'],
      rules: zones(root, [
        onlyFrom('reference-harness', ['protocol'], 'reference-harness/ imports only protocol/.'),
      ]),
    },
    {
      files: ['suites/**/*.ts', ...CLI_SUITE_FIXTURES],
      rules: zones(root, [{ target: '.', from: 'cli', message: 'suites/ never imports cli/.' }]),
    },
    {
      files: ['cli/**/*.ts'],
      ignores: [...CLI_TEST_FILES, ...CLI_SUITE_FIXTURES],
      rules: zones(root, [
        {
          target: 'cli',
          from: join(root, 'suites/**'),
          except: suitesExcept(root, false),
          message: THROUGH_INDEX,
        },
      ]),
    },
    {
      files: CLI_TEST_FILES,
      ignores: CLI_SUITE_FIXTURES,
      rules: zones(root, [
        {
          target: 'cli',
          from: join(root, 'suites/**'),
          except: suitesExcept(root, true),
          message: THROUGH_INDEX,
        },
      ]),
    },
  ];
}
