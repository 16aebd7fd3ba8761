import { describe, expect, it } from 'vitest';
import { MACHINE_PROBE, machineScaleOf, readMachine } from './machine-scale.js';

const quietSpawn = MACHINE_PROBE.quietSpawnMs;

describe('machineScaleOf', () => {
  it('is 1 on a quiet machine, noise included', () => {
    expect(
      machineScaleOf({ spawnMs: [quietSpawn * 0.8, quietSpawn, quietSpawn * 1.3], latenessMs: [1, 2, 5] }),
    ).toBe(1);
  });

  it('follows the slower of child starts (median) and timer lateness (90th percentile)', () => {
    expect(
      machineScaleOf({ spawnMs: [quietSpawn * 2.3, quietSpawn * 9, quietSpawn * 2.5], latenessMs: [1] }),
    ).toBe(2.5);
    const late = Array.from({ length: 10 }, (_, i) => (i < 8 ? 1 : 150));
    expect(machineScaleOf({ spawnMs: [quietSpawn], latenessMs: late })).toBe(2.5);
  });

  it('never goes past its cap', () => {
    expect(machineScaleOf({ spawnMs: [quietSpawn * 50], latenessMs: [] })).toBe(MACHINE_PROBE.maxFactor);
  });
});

describe('readMachine', () => {
  it('samples child starts and timers in about half a second', { timeout: 30_000 }, async () => {
    const reading = await readMachine();
    expect(reading.spawnMs).toHaveLength(MACHINE_PROBE.spawns);
    expect(reading.latenessMs.length).toBeGreaterThan(5);
    expect(machineScaleOf(reading)).toBeGreaterThanOrEqual(1);
  });
});
