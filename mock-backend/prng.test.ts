import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nextRandom, prngState } from './prng.js';

function draws(seed: number, n: number): number[] {
  let state = prngState(seed);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = nextRandom(state);
    out.push(r.value);
    state = r.state;
  }
  return out;
}

describe('prng', () => {
  it('gives the same sequence for the same seed', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        expect(draws(seed, 20)).toEqual(draws(seed, 20));
      }),
    );
  });

  it('gives different sequences for different seeds', () => {
    expect(draws(1, 8)).not.toEqual(draws(2, 8));
  });

  it('stays in [0, 1) and keeps a uint32 state', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (state) => {
        const r = nextRandom(state);
        expect(r.value).toBeGreaterThanOrEqual(0);
        expect(r.value).toBeLessThan(1);
        expect(Number.isInteger(r.state) && r.state >= 0 && r.state <= 0xffffffff).toBe(true);
      }),
    );
  });

  it('is roughly uniform (mean and both halves populated)', () => {
    const values = draws(7, 10_000);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(mean).toBeGreaterThan(0.47);
    expect(mean).toBeLessThan(0.53);
    const low = values.filter((v) => v < 0.5).length;
    expect(low).toBeGreaterThan(4_700);
    expect(low).toBeLessThan(5_300);
  });

  it('maps odd seeds to a defined state', () => {
    expect(prngState(Number.NaN)).toBe(0);
    expect(prngState(-1)).toBe(0xffffffff);
    expect(prngState(3.9)).toBe(3);
  });
});
