import { describe, expect, it } from 'vitest';
import type { ProcessInfo } from '../../../mock-backend/index.js';
import { startOutlastedDeadline, stillStarting } from './cold-start.js';

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

describe('startOutlastedDeadline', () => {
  // The call begins at 10 000 with a 5 000 ms deadline; the reply is held 1 500 ms.
  const held = (pid: number, atWallMs: number, hold = 1500) => ({
    connectionId: String(pid),
    atWallMs,
    actions: [{ type: 'write', afterMs: hold }],
  });

  it('names a cold process that read the request so late that the held reply was due after the deadline', () => {
    expect(startOutlastedDeadline([proc(10_050)], call, [held(10_050, 14_100)], 5000)).toMatch(
      /took 4100 ms to read the request, so the reply the mock holds 1500 ms was due after the 5000 ms deadline/,
    );
  });

  it('is no excuse for a reply that was due inside the deadline (a harness that gave up early)', () => {
    expect(startOutlastedDeadline([proc(10_050)], call, [held(10_050, 10_400)], 5000)).toBeUndefined();
  });

  it('is no excuse on a process that was up before the call', () => {
    expect(startOutlastedDeadline([proc(9_000)], call, [held(9_000, 14_100)], 5000)).toBeUndefined();
  });

  it('is no excuse when the hold alone outlasts the deadline (the case means the reply to be late)', () => {
    expect(startOutlastedDeadline([proc(10_050)], call, [held(10_050, 10_100, 6000)], 5000)).toBeUndefined();
  });
});
