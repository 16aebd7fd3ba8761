import { describe, expect, it } from 'vitest';
import type { ProcessInfo } from '../../../mock-backend/index.js';
import { stillStarting } from './cold-start.js';

const call = { startedWallMs: 10_000, answeredWallMs: 10_500, startupSlackMs: 20 };
const proc = (startedAt: number, exitAt?: number): ProcessInfo => ({
  pid: startedAt,
  startedAt,
  alive: exitAt === undefined,
  ...(exitAt === undefined ? {} : { exit: { code: 0, signal: null, at: exitAt } }),
});

describe('stillStarting', () => {
  it('names a backend that came up only after the driver answered', () => {
    expect(stillStarting([proc(12_900)], call)).toMatch(
      /still starting when the call ended \(it came up 2400 ms after the driver's answer\)/,
    );
    expect(stillStarting([proc(10_490)], call)).toMatch(/as the driver answered/);
  });

  it('shows no cold start when nothing was started: a harness that spawned nothing is judged', () => {
    expect(stillStarting([], call)).toBeUndefined();
  });

  it('shows no cold start when a backend was up during the call and got nothing', () => {
    expect(stillStarting([proc(10_200)], call)).toBeUndefined();
    expect(stillStarting([proc(9_000), proc(12_000)], call)).toBeUndefined();
  });

  it('counts a process that ended before the call began as not up for it', () => {
    expect(stillStarting([proc(5_000, 9_500), proc(11_000)], call)).toMatch(/still starting/);
  });

  it('needs the start to fall after the call began', () => {
    expect(stillStarting([proc(9_990)], { ...call, answeredWallMs: 10_000 })).toBeUndefined();
  });
});
