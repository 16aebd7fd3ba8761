import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { attemptCount, attemptEntries, countAttempt, NO_ATTEMPTS } from './attempt-counts.js';
import type { AttemptCounts } from './model.js';

/** Two pairs of event ids whose keys with `hooks/intercept` share all 32 hash bits. */
const COLLIDING = ['e512789', 'e749192', 'e512788', 'e749193'];

const key = fc.record({
  method: fc.constantFrom('hooks/intercept', 'hooks/observe'),
  eventId: fc.oneof(
    fc.constantFrom(...COLLIDING),
    fc.string({ maxLength: 4 }),
    fc.integer({ min: 0, max: 300 }).map((i) => `evt_${i}`),
  ),
});

describe('attempt counts', () => {
  it('counts like a map of maps, and never changes a trie it was given', () => {
    fc.assert(
      fc.property(fc.array(key, { maxLength: 400 }), (keys) => {
        const model = new Map<string, number>();
        let counts: AttemptCounts = NO_ATTEMPTS;
        for (const { method, eventId } of keys) {
          const before = structuredClone(counts);
          const next = countAttempt(counts, method, eventId);
          expect(counts).toEqual(before);
          const k = `${method}\n${eventId}`;
          const expected = (model.get(k) ?? 0) + 1;
          model.set(k, expected);
          expect(next.attempt).toBe(expected);
          counts = next.counts;
        }
        for (const [k, n] of model) {
          const [method = '', eventId = ''] = k.split('\n');
          expect(attemptCount(counts, method, eventId)).toBe(n);
        }
        expect(attemptEntries(counts)).toHaveLength(model.size);
        expect(attemptCount(counts, 'hooks/intercept', 'never-seen')).toBe(0);
      }),
    );
  });

  it('keeps keys apart whose hashes are the same in every bit', () => {
    let counts = NO_ATTEMPTS;
    for (const id of [...COLLIDING, 'e749192', 'e512788', 'e512788']) {
      counts = countAttempt(counts, 'hooks/intercept', id).counts;
    }
    expect(COLLIDING.map((id) => attemptCount(counts, 'hooks/intercept', id))).toEqual([1, 2, 3, 1]);
  });

  it('is plain data: JSON and structuredClone give the same trie back', () => {
    let counts = NO_ATTEMPTS;
    for (let i = 0; i < 500; i++) counts = countAttempt(counts, 'hooks/intercept', `e${i % 200}`).counts;
    expect(JSON.parse(JSON.stringify(counts))).toEqual(counts);
    expect(structuredClone(counts)).toEqual(counts);
  });
});
