// docs/harness-authors.md tells harness authors what a field their driver leaves out gives: its
// table must be the one the rule catalogue's evidence declarations give (scripts/lib/unreported-field-table.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './lib/doc-sandbox.js';
import {
  unreportedFieldRows,
  unreportedFieldTable,
  unreportedFieldTableInPage,
} from './lib/unreported-field-table.js';

describe('the unreported-field table of docs/harness-authors.md', () => {
  it('is what the harness rules declare they read', () => {
    const page = readFileSync(join(ROOT, 'docs', 'harness-authors.md'), 'utf8');
    expect(
      unreportedFieldTableInPage(page),
      `replace the table in docs/harness-authors.md with this one (then npx prettier --write docs):\n${unreportedFieldTable()}\n`,
    ).toEqual(unreportedFieldRows());
  });

  it('names the audit failure class as what AHPX-FAIL-007 rests on', () => {
    const row = unreportedFieldRows().find((r) => r[0]?.includes('failureClass'));
    expect(row?.[2]).toBe('`AHPX-FAIL-007`');
  });
});
