import { describe, expect, it } from 'vitest';
import type { InvokeResult } from '../../driver/index.js';
import { goesAhead } from './goes-ahead.js';

const CONTINUED: InvokeResult = { decision: 'continue', synthetic: false, interrupted: false, audit: [] };

describe('goesAhead', () => {
  it('a stop reported as a deny (v1 drivers) does not go ahead', () => {
    expect(goesAhead({ ...CONTINUED, decision: 'deny', reason: 'halt' })).toBe(false);
  });

  it('a stop reported the draft way, continue with flow stop and executed false (v1.3), does not go ahead', () => {
    expect(goesAhead({ ...CONTINUED, flow: 'stop', executed: false })).toBe(false);
  });

  it('a continue with no flow member, executed or not said, goes ahead', () => {
    expect(goesAhead({ ...CONTINUED, executed: true })).toBe(true);
    expect(goesAhead(CONTINUED)).toBe(true);
  });

  it('a flow stop that still executed, or says nothing of execution, is no stop that held', () => {
    expect(goesAhead({ ...CONTINUED, flow: 'stop', executed: true })).toBe(true);
    expect(goesAhead({ ...CONTINUED, flow: 'stop' })).toBe(true);
    expect(goesAhead({ ...CONTINUED, flow: 'continue', executed: false })).toBe(true);
  });
});
