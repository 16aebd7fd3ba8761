import { describe, expect, it } from 'vitest';
import { scaledMargins, scaledMs } from './scale.js';

describe('scaledMs', () => {
  it('multiplies and rounds to a whole number of ms', () => {
    expect(scaledMs(300, 2.5)).toBe(750);
    expect(scaledMs(333, 1.5)).toBe(500);
    expect(scaledMs(10_000, 1.23)).toBe(12_300);
  });

  it('never gives less than 1 ms, so a scaled deadline stays a valid timeoutMs', () => {
    expect(scaledMs(0, 3)).toBe(1);
    expect(scaledMs(1, 0.2)).toBe(1);
  });
});

describe('scaledMargins', () => {
  it('scales every margin of a table, nested tables too, with one rounding', () => {
    const table = { spawnMs: 3000, slackMs: 21, perTransport: { http: 400, stdio: 2500 } } as const;
    expect(scaledMargins(table, 1.5)).toEqual({
      spawnMs: 4500,
      slackMs: 32,
      perTransport: { http: 600, stdio: 3750 },
    });
    expect(scaledMargins(table, 1)).toEqual(table);
  });
});
