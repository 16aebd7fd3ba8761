// docs/harness-authors.md tells harness authors which wire fault is which failure class: its
// table must be the one the suite's classifier gives (scripts/lib/wire-fault-table.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAILURE_CLASSES } from '../protocol/failure-classes.js';
import { ROOT } from './lib/doc-sandbox.js';
import { tableInPage, wireFaultRows, wireFaultTable } from './lib/wire-fault-table.js';

describe('the wire-fault table of docs/harness-authors.md', () => {
  it('is what suites/harness/kit/classify.ts expects of a conforming harness', () => {
    const page = readFileSync(join(ROOT, 'docs', 'harness-authors.md'), 'utf8');
    expect(
      tableInPage(page),
      `replace the table in docs/harness-authors.md with this one (then npx prettier --write docs):\n${wireFaultTable()}\n`,
    ).toEqual(wireFaultRows());
  });

  it('names each of the twelve failure classes somewhere', () => {
    const rows = wireFaultRows().slice(1);
    const named = new Set(
      rows.flatMap((r) => r.slice(1).flatMap((c) => [...c.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]))),
    );
    expect([...named].sort()).toEqual([...FAILURE_CLASSES].sort());
  });
});
