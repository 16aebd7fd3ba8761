/** Summary of one latency sample set, in milliseconds. */
export interface LatencySummary {
  n: number;
  median: number;
  p99: number;
  mean: number;
}

/** The `q`-quantile (0..1) of ascending `sorted` by the nearest-rank rule; NaN when empty. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil(q * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

/** Median, p99 and mean of `samples` (left unchanged). */
export function summarize(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.length === 0 ? Number.NaN : sorted.reduce((a, b) => a + b, 0) / sorted.length;
  return { n: sorted.length, median: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), mean };
}

/** Formats milliseconds as microseconds for the tables (the floors here are tens of µs). */
export function micros(ms: number): string {
  return `${(ms * 1000).toFixed(0)} µs`;
}
