/**
 * A small seeded PRNG for `probability` behaviours. The state is one uint32 kept in the engine
 * state, so a run is reproducible from the seed and the inputs alone, and the state prints as JSON.
 * Design: a Weyl sequence (add an odd constant) finished with a 32-bit avalanche mix; plenty for
 * choosing branches, not for cryptography.
 */

const WEYL_STEP = 0x9e3779b9;

/** The initial PRNG state for a seed (any finite number; non-integers are truncated). */
export function prngState(seed: number): number {
  return Number.isFinite(seed) ? Math.trunc(seed) >>> 0 : 0;
}

/** One draw: a float in [0, 1) and the next state. Pure. */
export function nextRandom(state: number): { value: number; state: number } {
  const next = (state + WEYL_STEP) >>> 0;
  let z = next;
  // Each xor-shift/multiply round spreads every input bit over the whole word.
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  z = (z ^ (z >>> 16)) >>> 0;
  return { value: z / 0x1_0000_0000, state: next };
}
