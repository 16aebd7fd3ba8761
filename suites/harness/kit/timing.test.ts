import { describe, expect, it } from 'vitest';
import { HARNESS_MARGINS, scaledHarnessMargins } from './timing.js';

describe('scaledHarnessMargins', () => {
  it('scales every margin by the timeout scale', () => {
    const m = scaledHarnessMargins(2);
    expect(m.lateByMs).toBe(HARNESS_MARGINS.lateByMs * 2);
    expect(m.shortDeadlineMs('http')).toBe(HARNESS_MARGINS.shortDeadlineMs.http * 2);
    expect(m.justLateByMs).toBe(HARNESS_MARGINS.justLateByMs * 2);
  });

  it('keeps the just-late margins at the precision scale: a busy machine never widens them', () => {
    // The run's scale raised to 3 for a busy machine, --timeout-scale 1.
    const m = scaledHarnessMargins(3, 1);
    expect(m.settleToleranceMs).toBe(HARNESS_MARGINS.settleToleranceMs * 3);
    expect(m.justLateByMs).toBe(HARNESS_MARGINS.justLateByMs);
    expect(m.justLateWindowMs).toBe(HARNESS_MARGINS.justLateWindowMs);
  });
});
