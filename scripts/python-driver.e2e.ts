// The Python example driver (docs/examples/minimal-driver.py), a harness built unlike the
// reference one, through the bin against the whole harness suite: no case may fail, and every
// transport it announces must have passing cases. A full suite run: a step of .ci/run of its own.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { expect, it } from 'vitest';
import type { Report } from '../cli/report/report.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'ahp-conformance.mjs');
const DRIVER = ['python3', join('docs', 'examples', 'minimal-driver.py')];

it('the Python example driver fails no case of the harness suite', async () => {
  const out = mkdtempSync(join(tmpdir(), 'ahp-python-driver-'));
  const argv = [BIN, 'harness', '--reporter', 'json', '--output-dir', out, '--', ...DRIVER];
  const run = await execa(process.execPath, argv, { cwd: ROOT, reject: false });
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
  const failing = report.requirements.flatMap((r) =>
    r.cases.filter((c) => c.status === 'fail').map((c) => `${c.name}: ${(c.errors ?? []).join(' ')}`),
  );
  expect(failing, run.stdout.split('\n').slice(-30).join('\n')).toEqual([]);
  expect(run.exitCode).toBe(0);
  expect(report.summary.failed).toBe(0);
  const passedOver = new Set(
    report.requirements.flatMap((r) =>
      r.cases.filter((c) => c.status === 'pass').flatMap((c) => c.transports),
    ),
  );
  expect([...passedOver]).toEqual(expect.arrayContaining(['http', 'stdio-per_event', 'stdio-persistent']));
});
