import { describe, expect, it } from 'vitest';
import { ProcessRegistry } from './process-registry.js';
import { processAlive } from '../../protocol/process-alive.js';

describe('ProcessRegistry', () => {
  it('lists processes in start order with their reported end and liveness', () => {
    const alive = new Set([1, 2]);
    const registry = new ProcessRegistry((pid) => alive.has(pid));
    registry.started(1, 100);
    registry.started(2, 110);
    registry.exited(1, { code: 3, signal: null }, 120);
    registry.exited(1, { code: 9, signal: null }, 130);
    alive.delete(1);
    expect(registry.list()).toEqual([
      { pid: 1, startedAt: 100, exit: { code: 3, signal: null, at: 120 }, alive: false },
      { pid: 2, startedAt: 110, alive: true },
    ]);
    expect(registry.pids()).toEqual([1, 2]);
    registry.reset();
    expect(registry.list()).toEqual([]);
  });

  it('keeps the first stdin EOF a process reports, with the messages it had read', () => {
    const registry = new ProcessRegistry(() => true);
    registry.started(1, 100);
    registry.stdinEnded(1, { at: { monotonic: 7, wall: 107 }, messages: 1 });
    registry.stdinEnded(1, { at: { monotonic: 9, wall: 109 }, messages: 2 });
    registry.stdinEnded(3, { at: { monotonic: 1, wall: 101 }, messages: 1 });
    expect(registry.list()).toEqual([
      { pid: 1, startedAt: 100, stdinEnd: { at: { monotonic: 7, wall: 107 }, messages: 1 }, alive: true },
    ]);
  });

  it('asks the OS by default: this process exists, an unused PID does not', () => {
    expect(processAlive(process.pid)).toBe(true);
    expect(processAlive(2 ** 22 + 12345)).toBe(false);
  });
});
