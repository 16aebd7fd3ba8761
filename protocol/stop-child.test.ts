import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { systemClock } from './clock.js';
import { stopChild } from './stop-child.js';

/** Starts a node child running `code` and resolves once it is ready (it prints "ready"). */
async function nodeChild(code: string) {
  const child = spawn(process.execPath, ['-e', `${code}; process.stdout.write('ready')`], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await once(child.stdout, 'data');
  const exit = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const sent: string[] = [];
  const target = {
    signal(name: 'SIGTERM' | 'SIGKILL') {
      sent.push(name);
      child.kill(name);
    },
    ended: () => exit,
  };
  return { target, exit, sent };
}

describe('stopChild', () => {
  it('SIGKILLs a child that ignores SIGTERM once the grace is over', async () => {
    const { target, exit, sent } = await nodeChild(
      "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)",
    );
    const started = performance.now();
    expect(await stopChild(target, 300, systemClock)).toBe(true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(sent).toEqual(['SIGTERM', 'SIGKILL']);
    expect((await exit)[1]).toBe('SIGKILL');
  });

  it('does not SIGKILL a child that exits on SIGTERM', async () => {
    const { target, exit, sent } = await nodeChild(
      "process.on('SIGTERM', () => process.exit(3)); setInterval(() => {}, 1000)",
    );
    expect(await stopChild(target, 10_000, systemClock)).toBe(false);
    expect(sent).toEqual(['SIGTERM']);
    expect(await exit).toEqual([3, null]);
  });
});
