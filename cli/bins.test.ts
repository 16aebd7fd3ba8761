// The programs the package declares in package.json "bin": each exists and is executable; the CLI
// bin that cannot start (an incomplete install) says so in one sentence with exit 3, never 1; the
// broken-twin bin, which the docs run as `npx ahp-broken-twin <twin>`, answers a wrong name in
// one sentence with the closest twin, never a stack trace; an output directory where the file
// system never answers ends the run in one sentence too, never a hang.
import { accessSync, constants, copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { bin } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
};

describe('the package bins', () => {
  it.each(Object.entries(bin))('%s (%s) is an executable file', (_name, path) => {
    expect(() => accessSync(join(ROOT, path), constants.X_OK)).not.toThrow();
    expect(readFileSync(join(ROOT, path), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
  });

  it('ahp-conformance that cannot load its code exits 3 in one sentence', { timeout: 60_000 }, async () => {
    // The bin alone, without dist/, the sources or its dependencies: an install that went wrong.
    const dir = mkdtempSync(join(tmpdir(), 'ahp-broken-install-'));
    mkdirSync(join(dir, 'bin'));
    for (const file of ['ahp-conformance.mjs', 'bundle-freshness.mjs']) {
      copyFileSync(join(ROOT, 'bin', file), join(dir, 'bin', file));
    }
    const r = await execa(process.execPath, [join(dir, 'bin', 'ahp-conformance.mjs'), '--version'], {
      reject: false,
      cwd: dir,
    });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(
      /^ahp-conformance: could not start \(.+\); reinstall it \(npm ci, or npm install ahp-conformance\)\.$/,
    );
  });

  it(
    'ahp-broken-twin names the closest twin for a misspelt one, with exit 2',
    { timeout: 60_000 },
    async () => {
      const r = await execa(
        process.execPath,
        [join(ROOT, bin['ahp-broken-twin'] as string), 'clam-missing'],
        {
          reject: false,
          stdin: 'ignore',
        },
      );
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toBe(
        'ahp-broken-twin: there is no twin "clam-missing"; did you mean "claim-missing"?',
      );
    },
  );

  it(
    'ahp-conformance given an output directory under /proc exits 2 in one sentence, never hangs',
    { timeout: 60_000 },
    async () => {
      const r = await execa(
        process.execPath,
        [
          join(ROOT, bin['ahp-conformance'] as string),
          'harness',
          '--reporter',
          'json',
          '--output-dir',
          '/proc/ahp-reports',
        ],
        { reject: false, stdin: 'ignore', timeout: 50_000 },
      );
      expect(r.timedOut).toBe(false);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toBe(
        'ahp-conformance harness: cannot write reports to the output directory "/proc/ahp-reports" (ENOENT); pass a writable directory with --output-dir.',
      );
    },
  );
});
