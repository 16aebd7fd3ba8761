import { describe, expect, it } from 'vitest';
import type { StepRun } from './case-model.js';
import { readJustLate } from './just-late.js';
import type { WireFrame } from './wire-records.js';

const JUST_LATE_TEST_MARGINS = { justLateByMs: 60, justLateWindowMs: 60 };
const TIMEOUT_MS = 400;
/** The suite sent invoke at 1000 on the mock's clock; the request arrived at 1010. */
const INVOKED = 1000;

function run(elapsedMs: number, firstWriteMs?: number): StepRun {
  const request = {
    atMs: 1010,
    ...(firstWriteMs === undefined ? {} : { firstWriteMs }),
  } as WireFrame;
  return {
    elapsedMs,
    records: { frames: [request], requests: [request], notifications: [] },
  } as unknown as StepRun;
}

describe('readJustLate', () => {
  it('counts a reply taken when the mock sent it at least justLateByMs after the deadline', () => {
    // Sent at 1010 + 400 + 70: 70 ms after the deadline counted from the arrival.
    expect(
      readJustLate(run(500, 1480), ['the decision is "deny"'], TIMEOUT_MS, INVOKED, JUST_LATE_TEST_MARGINS),
    ).toEqual({
      verdict: 'taken',
      sentAfterDeadlineMs: 70,
    });
  });

  it('blames nobody for a failed step whose reply was not shown late', () => {
    const early = readJustLate(run(500, 1440), ['x'], TIMEOUT_MS, INVOKED, JUST_LATE_TEST_MARGINS);
    expect(early.verdict).toBe('inconclusive');
    const unsent = readJustLate(run(500), ['x'], TIMEOUT_MS, INVOKED, JUST_LATE_TEST_MARGINS);
    expect(unsent.verdict).toBe('inconclusive');
  });

  it('shows the deadline kept when the call was answered, or the reply left, within the room', () => {
    // Room: 400 + 60 + 60 = 520 ms from the invoke.
    expect(readJustLate(run(410), [], TIMEOUT_MS, INVOKED, JUST_LATE_TEST_MARGINS)).toEqual({
      verdict: 'kept',
    });
    expect(readJustLate(run(900, 1475), [], TIMEOUT_MS, INVOKED, JUST_LATE_TEST_MARGINS)).toEqual({
      verdict: 'kept',
    });
  });

  it('shows nothing when both came too late for a small stretch to show', () => {
    expect(readJustLate(run(600, 1530), [], TIMEOUT_MS, INVOKED, JUST_LATE_TEST_MARGINS).verdict).toBe(
      'inconclusive',
    );
    expect(readJustLate(run(600), [], TIMEOUT_MS, INVOKED, JUST_LATE_TEST_MARGINS).verdict).toBe(
      'inconclusive',
    );
  });
});
