import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { processAlive } from './process-alive.js';

describe('processAlive', () => {
  it('is true for a running process and false once it ended', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    const pid = child.pid as number;
    expect(processAlive(pid)).toBe(true);
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(processAlive(pid)).toBe(false);
  });

  it('is true for a process that exists but is not ours to signal (EPERM), false for no such PID', () => {
    expect(processAlive(1)).toBe(true);
    expect(processAlive(2 ** 22 + 1)).toBe(false);
  });
});
