import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const HOOK = fileURLToPath(new URL('./coverage-hook.mjs', import.meta.url));

/** A process as instrumented code leaves it: Stryker's counters on the global namespace. */
const COVERED = `globalThis.__stryker__ = { mutantCoverage: { static: { '3': 1 }, perTest: { t: { '7': 2 } } } };`;

function run(script: string, dir: string) {
  return execa(process.execPath, [`--import=${HOOK}`, '-e', script], {
    env: { AHP_MUTATION_COVERAGE_DIR: dir },
    reject: false,
  });
}

describe('the dry run coverage hook', () => {
  it('writes the mutants a process reached when it exits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hook-'));
    const result = await run(COVERED, dir);
    expect(result.exitCode).toBe(0);
    const [file] = readdirSync(dir);
    expect(JSON.parse(readFileSync(join(dir, file!), 'utf8'))).toEqual(['3', '7']);
  });

  it('writes before SIGTERM ends the process, which still ends by the signal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hook-'));
    const result = await run(
      `${COVERED} process.kill(process.pid, 'SIGTERM'); setTimeout(() => {}, 5000);`,
      dir,
    );
    expect(result.signal).toBe('SIGTERM');
    expect(readdirSync(dir)).toHaveLength(1);
  });

  it("leaves a process's own SIGTERM handling alone", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hook-'));
    const script = `${COVERED} process.on('SIGTERM', () => { console.log('own'); process.exit(4); }); process.kill(process.pid, 'SIGTERM'); setTimeout(() => {}, 5000);`;
    const result = await run(script, dir);
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toBe('own');
  });

  it('writes nothing for a process that loaded no mutated code', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hook-'));
    expect((await run('1', dir)).exitCode).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });
});
