// Ctrl-C in the middle of a run, on a real CLI process: the run stops, every process it started
// (vitest workers, drivers, their backends and mocks) is gone, the partial report says
// "interrupted" and holds what finished, and the exit code is 128 + the signal's number.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Report } from './report/report.js';
import { NOT_RUN_INTERRUPTED } from './runner/run-conformance.js';

const BIN = fileURLToPath(new URL('../bin/ahp-conformance.mjs', import.meta.url));

/** Living processes (zombies aside) of process group `pgid`, from /proc. */
function groupMembers(pgid: number): string[] {
  const members: string[] = [];
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') {
      members.push(`${entry} ${stat.slice(stat.indexOf('('), stat.lastIndexOf(')') + 1)}`);
    }
  }
  return members;
}

interface Interrupted {
  code: number | null;
  stdout: string;
  stderr: string;
  left: string[];
  dir: string;
}

/**
 * Starts `harness` in a process group of its own, sends `signal` to the CLI process alone (as a
 * CI runner does; its children get nothing from outside) once a progress line says `cases` cases
 * have finished.
 */
function interruptRun(signal: NodeJS.Signals, cases: number): Promise<Interrupted> {
  const dir = mkdtempSync(join(tmpdir(), 'ahp-interrupt-'));
  const child = spawn(process.execPath, [BIN, 'harness', '--reporter', 'json', '--output-dir', dir], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  const pgid = child.pid as number;
  let stdout = '';
  let stderr = '';
  let sent = false;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    const done = [...stdout.matchAll(/^progress: (\d+)\//gm)].map((m) => Number(m[1]));
    if (!sent && done.some((n) => n >= cases)) {
      sent = true;
      child.kill(signal);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const left = groupMembers(pgid);
      // Whatever a failing run leaves must not outlive the test.
      if (left.length > 0) process.kill(-pgid, 'SIGKILL');
      resolve({ code, stdout, stderr, left, dir });
    });
  });
}

describe('an interrupted run', () => {
  it(
    'SIGINT mid-run: exit 130, no process left, a partial report marked interrupted',
    { timeout: 180_000 },
    async () => {
      const run = await interruptRun('SIGINT', 5);
      expect(run.code, run.stderr).toBe(130);
      expect(run.left).toEqual([]);
      const file = join(run.dir, 'report.json');
      expect(run.stdout).toContain(`Partial report: ${file}`);
      expect(run.stdout).toMatch(/Verdict: none: the run was interrupted after \d+ cases? finished/);
      const report = JSON.parse(readFileSync(file, 'utf8')) as Report;
      expect(report.interrupted).toBe(true);
      const cases = report.requirements.flatMap((r) => r.cases);
      expect(cases.filter((c) => c.status === 'pass').length).toBeGreaterThanOrEqual(5);
      expect(cases.filter((c) => c.status === 'fail')).toEqual([]);
      expect(cases.some((c) => c.note === NOT_RUN_INTERRUPTED)).toBe(true);
    },
  );
});
