import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RULE = 'import-x/no-restricted-paths';
const eslint = new ESLint({ cwd: ROOT });

/** The layer findings of linting `specifier`'s import as if written in `filePath` (package-relative). */
async function layerMessages(filePath: string, specifier: string): Promise<string[]> {
  const code = `import * as imported from '${specifier}';\nexport const used = imported;\n`;
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === RULE).map((m) => m.message);
}

/** A back-edge and an allowed import for each layer rule. */
const EDGES: readonly { rule: string; file: string; denied: string; allowed: string }[] = [
  {
    rule: 'cli/ reaches a suite only through its public entry',
    file: 'cli/commands/probe.ts',
    denied: '../../suites/harness/families/core-claim-rules.js',
    allowed: '../../suites/harness/index.js',
  },
  {
    rule: "cli/'s tests reach a suite through its public entry or its test support",
    file: 'cli/self-test/probe.test.ts',
    denied: '../../suites/harness/kit/provided.js',
    allowed: '../../suites/driver/test-drivers/bundle-stdio-only.js',
  },
  {
    rule: 'suites/ never imports cli/',
    file: 'suites/harness/families/probe.ts',
    denied: '../../../cli/run.js',
    allowed: '../../../mock-backend/index.js',
  },
  {
    rule: 'mock-backend/ imports only protocol/',
    file: 'mock-backend/shells/probe.ts',
    denied: '../../reference-harness/index.js',
    allowed: '../../protocol/json.js',
  },
  {
    rule: 'mock-backend/ never imports the suites',
    file: 'mock-backend/probe.ts',
    denied: '../suites/common/index.js',
    allowed: './index.js',
  },
  {
    rule: 'reference-harness/ imports only protocol/',
    file: 'reference-harness/probe.ts',
    denied: '../mock-backend/index.js',
    allowed: '../protocol/json.js',
  },
  {
    rule: 'protocol/ imports nothing of ours',
    file: 'protocol/probe.ts',
    denied: '../reference-harness/index.js',
    allowed: './json.js',
  },
];

describe('the layer rules of npm run lint', () => {
  for (const edge of EDGES) {
    it(`${edge.rule}: fails ${edge.denied} from ${edge.file}, passes ${edge.allowed}`, async () => {
      const denied = await layerMessages(edge.file, edge.denied);
      expect(denied).toHaveLength(1);
      expect(denied[0]).toContain(edge.denied);
      expect(await layerMessages(edge.file, edge.allowed)).toEqual([]);
    });
  }

  it('judges the file an import reaches, however the relative path is spelled', async () => {
    // A detour through another folder still lands in a suite's internals.
    const detour = '../../protocol/../suites/common/finding.js';
    expect(await layerMessages('cli/report/probe.ts', detour)).toHaveLength(1);
  });
});
