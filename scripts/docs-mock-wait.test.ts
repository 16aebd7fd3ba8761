// The mock example of docs/mock-backend.md waits for the mock's URLs in a loop: when the mock
// cannot start, the loop must end (the mock said why), not spin until someone interrupts it.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { docBlocks } from './lib/doc-blocks.js';
import { createSandbox, DOC_MARGINS, ROOT } from './lib/doc-sandbox.js';

const PAGE = 'docs/mock-backend.md';
const STARTS_MOCK = '--scenario deny > mock.jsonl &';

describe(`the mock example of ${PAGE}`, () => {
  const sandbox = createSandbox(PAGE);
  afterAll(() => rmSync(sandbox.dir, { recursive: true, force: true }));

  it('ends when the mock fails to start, with the mock saying why', () => {
    const block = docBlocks(PAGE, readFileSync(join(ROOT, PAGE), 'utf8')).find((b) =>
      b.body.includes(STARTS_MOCK),
    );
    expect(block, `${PAGE} has a block starting the mock with "${STARTS_MOCK}"`).toBeDefined();
    const failing = (block?.body ?? '').replace(STARTS_MOCK, '--scenario no-such-scenario > mock.jsonl &');
    const ran = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', failing], {
      cwd: sandbox.dir,
      env: sandbox.env,
      encoding: 'utf8',
      timeout: DOC_MARGINS.blockMs / 2,
    });
    expect(ran.signal, 'the block was still waiting at the bound').toBeNull();
    expect(ran.status).not.toBe(0);
    expect(ran.stderr).toContain('Scenario "no-such-scenario" is neither a file nor a built-in name');
  });
});
