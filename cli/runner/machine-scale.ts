/**
 * How responsive the machine is, measured just before a run with timing cases: how long a Node
 * child takes to start and exit (the suite starts drivers, per_event backends and mocks all the
 * time) and how late short timers fire. The suite's margins were sized on a quiet 2-core machine;
 * on a busier one they grow by the measured factor, so that a correct harness is not failed by
 * the machine's load. The factor only raises waits (the run's timeout scale); the offsets that
 * catch a harness stretching its deadline a little keep `--timeout-scale` (suites/harness/kit/timing.ts).
 */
import { spawn } from 'node:child_process';

/** The probe's named bounds. */
export const MACHINE_PROBE = {
  /** Start-to-exit of `node -e ""` on the quiet 2-core machine the margins were sized on. */
  quietSpawnMs: 100,
  /** Timer lateness that costs a margin as much again: 100 ms late doubles the factor. */
  latenessPerFactorMs: 100,
  /** Child starts sampled (their median counts). */
  spawns: 3,
  /** How long 10 ms timers are sampled for lateness (their 90th percentile counts). */
  timerSampleMs: 300,
  /** Below this factor the machine counts as quiet: the difference is noise, not load. */
  quietBelow: 1.5,
  /** The factor never exceeds this: past it, a run would take too long to be useful. */
  maxFactor: 8,
} as const;

/** What the probe saw. */
export interface MachineReading {
  /** Start-to-exit of each sampled Node child, in ms. */
  spawnMs: number[];
  /** Lateness of each sampled timer, in ms. */
  latenessMs: number[];
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

/** The factor a reading calls for: 1 on a quiet machine, else how much slower it is (one decimal). */
export function machineScaleOf(reading: MachineReading): number {
  const spawnFactor = quantile(reading.spawnMs, 0.5) / MACHINE_PROBE.quietSpawnMs;
  const timerFactor = 1 + quantile(reading.latenessMs, 0.9) / MACHINE_PROBE.latenessPerFactorMs;
  const factor = Math.max(spawnFactor, timerFactor);
  if (!Number.isFinite(factor) || factor < MACHINE_PROBE.quietBelow) return 1;
  return Math.round(Math.min(factor, MACHINE_PROBE.maxFactor) * 10) / 10;
}

function spawnOnce(): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    const done = (): void => resolve(performance.now() - started);
    child.once('exit', done);
    // A machine that cannot start a child at all is as slow as the probe allows.
    child.once('error', () => resolve(MACHINE_PROBE.quietSpawnMs * MACHINE_PROBE.maxFactor));
  });
}

async function timerLateness(): Promise<number[]> {
  const late: number[] = [];
  const started = performance.now();
  while (performance.now() - started < MACHINE_PROBE.timerSampleMs) {
    const at = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 10));
    late.push(Math.max(0, performance.now() - at - 10));
  }
  return late;
}

/** Samples the machine (about half a second on a quiet one). */
export async function readMachine(): Promise<MachineReading> {
  const latenessMs = await timerLateness();
  const spawnMs: number[] = [];
  for (let i = 0; i < MACHINE_PROBE.spawns; i++) spawnMs.push(await spawnOnce());
  return { spawnMs, latenessMs };
}

/** The machine's factor, measured now. */
export async function measureMachineScale(): Promise<number> {
  return machineScaleOf(await readMachine());
}
