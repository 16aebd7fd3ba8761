import { describe, expect, it } from 'vitest';
import { micros, quantile, summarize } from './bench-stats.js';

describe('bench stats', () => {
  it('uses the nearest-rank rule, so p99 of 100 samples is the 99th and of 10 is the maximum', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(quantile(hundred, 0.99)).toBe(99);
    expect(quantile(hundred, 0.5)).toBe(50);
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.99)).toBe(10);
    expect(quantile([], 0.5)).toBeNaN();
  });

  it('summarizes unsorted samples without reordering them', () => {
    const samples = [5, 1, 4, 2, 3];
    expect(summarize(samples)).toEqual({ n: 5, median: 3, p99: 5, mean: 3 });
    expect(samples).toEqual([5, 1, 4, 2, 3]);
    expect(micros(0.0421)).toBe('42 µs');
  });
});
