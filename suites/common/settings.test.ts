import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, runSettings, runTimeoutScale, scaled } from './settings.js';

describe('scaled', () => {
  it("multiplies by the run's scale (the defaults here: no runner provided settings)", () => {
    expect(runSettings()).toEqual(DEFAULT_SETTINGS);
    expect(runTimeoutScale()).toBe(1);
    expect(scaled(420)).toBe(420);
    expect(scaled(0)).toBe(1);
  });
});
