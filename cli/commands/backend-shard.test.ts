import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Report } from '../report/report.js';
import { run } from '../run.js';
import { fakeIo } from '../test-support/fake-io.js';

const BACKEND = fileURLToPath(new URL('../../docs/examples/deny-rm-backend.mjs', import.meta.url));
// Three backend suite runs and a merge, each a vitest start and backend processes.
const SLOW = { timeout: 300_000 };

async function cli(args: string[], cwd: string): Promise<{ code: number; out: string; report: Report }> {
  const [command, ...rest] = args;
  const out = join(
    cwd,
    args.includes('--shard') ? `shard-${args[args.indexOf('--shard') + 1]?.[0]}` : command!,
  );
  const f = fakeIo([command!, '--output-dir', out, '--reporter', 'json', ...rest], {
    cwd,
    env: { PATH: process.env.PATH ?? '' },
  });
  const code = await run(f.io);
  return { code, out: f.out(), report: JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report };
}

const statuses = (r: Report) =>
  Object.fromEntries(r.requirements.flatMap((q) => q.cases.map((c) => [c.name, c.status] as const)));

describe('backend --shard', () => {
  it('splits the backend cases one by one and merges into the unsharded verdict', SLOW, async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'ahp-backend-shard-'));
    const target = ['--seed', '4', '--stdio', '--', process.execPath, BACKEND];
    const whole = await cli(['backend', ...target], cwd);
    const one = await cli(['backend', '--shard', '1/2', ...target], cwd);
    const two = await cli(['backend', '--shard', '2/2', ...target], cwd);
    const total = Object.keys(statuses(whole.report)).length;
    expect(one.out).toContain(`shard 1/2: ${Math.ceil(total / 2)} of ${total} cases`);
    expect(two.report.shard?.balancedBy).toBe('case count (no recorded durations)');
    const merged = await cli(
      ['merge', join(cwd, 'shard-1', 'report.json'), join(cwd, 'shard-2', 'report.json')],
      cwd,
    );
    expect(statuses(merged.report)).toEqual(statuses(whole.report));
    expect(merged.report.summary).toEqual(whole.report.summary);
    expect(merged.code).toBe(whole.code);
  });
});
