/**
 * The doc tests as vitest tests: one test per runnable block of every documented page, the
 * blocks of a page in order in one folder (a saved file is there for the blocks after it). The
 * fast run (`npm test`) leaves `slow` blocks to the slow one (`.ci/run`'s e2e step) and says so.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { docBlocks, needsMarker, where, type DocBlock } from './doc-blocks.js';
import { createSandbox, DOC_MARGINS, docPages, ROOT, runBlock, type Sandbox } from './doc-sandbox.js';

/** Every block of every documented page that a reader would run or save. */
export function runnableBlocks(): DocBlock[] {
  return docPages().flatMap((page) =>
    docBlocks(page, readFileSync(join(ROOT, page), 'utf8')).filter((b) => needsMarker(b) || b.marker),
  );
}

/** Declares the tests of one kind of run; `slow: true` runs only the `slow` blocks. */
export function defineDocTests(options: { slow: boolean }): void {
  const counts = { ran: 0, saved: 0, skipped: [] as string[], deferred: [] as string[] };
  afterAll(() => {
    const lines = [
      `doc tests (${options.slow ? 'slow' : 'fast'}): ${counts.ran} block(s) run, ${counts.saved} saved as files, ` +
        `${counts.skipped.length} not run here, ${counts.deferred.length} left to the ${options.slow ? 'fast' : 'slow'} run`,
      ...counts.skipped.map((s) => `  not run: ${s}`),
      ...counts.deferred.map((s) => `  ${options.slow ? 'fast' : 'slow'}: ${s}`),
    ];
    console.log(lines.join('\n'));
  });

  const byPage = new Map<string, DocBlock[]>();
  for (const block of runnableBlocks()) byPage.set(block.page, [...(byPage.get(block.page) ?? []), block]);

  for (const [page, blocks] of byPage) {
    describe(page, () => {
      let sandbox: Sandbox | undefined;
      let failed = false;
      const box = (): Sandbox => (sandbox ??= createSandbox(page));
      // A page's folder is kept when one of its blocks failed (its failure message names it).
      afterAll(() => {
        if (sandbox && !failed) rmSync(sandbox.dir, { recursive: true, force: true });
      });
      for (const block of blocks) {
        const m = block.marker;
        const title = where(block);
        if (!m) {
          it(title, () => {
            expect.fail(
              `${title}: add a doc-test marker after the block, e.g. <!-- doc-test: exit=0 stdout="..." --> or <!-- doc-test: skip="why it cannot run here" --> (syntax: scripts/lib/doc-blocks.ts)`,
            );
          });
          continue;
        }
        if (block.markerError) {
          it(title, () => expect.fail(`${title}: the doc-test marker is unreadable: ${block.markerError}`));
          continue;
        }
        if (m.skip !== undefined) {
          counts.skipped.push(`${title}: ${m.skip}`);
          it.skip(`${title} [not run here: ${m.skip}]`, () => undefined);
          continue;
        }
        const isFile = m.file !== undefined;
        // Files are saved in both runs: a later block of either may need them.
        if (!isFile && m.slow !== options.slow) {
          counts.deferred.push(title);
          it.skip(`${title} [left to the ${options.slow ? 'fast' : 'slow'} run]`, () => undefined);
          continue;
        }
        const timeout = (m.slow ? DOC_MARGINS.slowBlockMs : DOC_MARGINS.blockMs) + DOC_MARGINS.goneMs;
        it(title, { timeout }, async () => {
          const problems = await runBlock(block, box(), { slow: m.slow });
          if (problems.length > 0) failed = true;
          if (isFile) counts.saved++;
          else counts.ran++;
          expect(problems, problems.join('\n')).toEqual([]);
        });
      }
    });
  }
}
