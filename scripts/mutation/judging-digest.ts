/**
 * One digest of the code that judges a target's cases (the suite kit, the CLI that runs and reads
 * them, the mock): part of every unit's test id (units.ts unitTestIds), so an incremental run
 * after a change there runs every mutant again instead of trusting verdicts the old code gave.
 * Tests of that code do not judge anything and are left out.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const NOT_JUDGING = /(\.test\.ts$|\/test-support\/|\/test-fixtures\/|\/self-test\/)/;

function filesUnder(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(root, path));
    else if (!NOT_JUDGING.test(`/${path}`)) out.push(path);
  }
  return out;
}

export function judgingDigest(root: string, dirs: readonly string[]): string {
  const hash = createHash('sha256');
  const files = dirs.flatMap((dir) => filesUnder(root, dir)).sort();
  for (const file of files) {
    hash
      .update(relative(root, join(root, file)))
      .update('\0')
      .update(readFileSync(join(root, file)))
      .update('\0');
  }
  return hash.digest('hex');
}
