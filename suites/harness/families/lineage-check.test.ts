import { describe, expect, it } from 'vitest';
import type { CaseRunContext, HarnessCase, StepRun } from '../kit/case-model.js';
import type { CaseRecords, WireFrame } from '../kit/wire-records.js';
import { LINEAGE_CHECK } from './lineage-check.js';

function frame(delivery: number, id: string, parentEventId?: string): WireFrame {
  const event = { id, type: 'user.elicitation.result', ...(parentEventId ? { parentEventId } : {}) };
  const text = JSON.stringify({ jsonrpc: '2.0', id, method: 'hooks/intercept', params: { event } });
  return { delivery, eventId: id, method: 'hooks/intercept', bytes: { text } } as unknown as WireFrame;
}

/** A two-step case (the second linked to the first unless `linked` is false) over recorded frames. */
async function ways(second: WireFrame, linked = true): Promise<(string | undefined)[]> {
  const steps = [[frame(1, 'evt-1')], [second]];
  const records = (i: number): CaseRecords => {
    const frames = steps[i] ?? [];
    return { frames, requests: frames, notifications: [] };
  };
  const testCase = { then: [{ behaviour: { kind: 'respond' }, ...(linked ? { parent: 0 } : {}) }] };
  const context = {
    testCase: testCase as unknown as HarnessCase,
    waitForFrames: () => Promise.resolve(),
    recordsNow: records,
  } as unknown as CaseRunContext;
  const found = await LINEAGE_CHECK.run({ index: 1 } as StepRun, context);
  return found.map((f) => f.way);
}

describe('LINEAGE_CHECK', () => {
  it('passes a child naming the id its parent went out under', async () => {
    expect(await ways(frame(2, 'evt-2', 'evt-1'))).toEqual([]);
  });

  it('finds a linked child without a parent, or with another one', async () => {
    expect(await ways(frame(2, 'evt-2'))).toEqual(['missing']);
    expect(await ways(frame(2, 'evt-2', 'call-1'))).toEqual(['wrong']);
  });

  it('finds an unlinked event naming itself or no earlier event, and passes one naming nothing', async () => {
    expect(await ways(frame(2, 'evt-2', 'evt-2'), false)).toEqual(['unknown']);
    expect(await ways(frame(2, 'evt-2', 'evt-9'), false)).toEqual(['unknown']);
    expect(await ways(frame(2, 'evt-2', 'evt-1'), false)).toEqual([]);
    expect(await ways(frame(2, 'evt-2'), false)).toEqual([]);
  });
});
