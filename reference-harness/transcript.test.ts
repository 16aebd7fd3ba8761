import { describe, expect, it } from 'vitest';
import { ManualClock } from '../protocol/clock.js';
import { TranscriptRecorder } from './transcript.js';

describe('TranscriptRecorder', () => {
  it('records text frames with direction, time and attempt', async () => {
    const clock = new ManualClock(5);
    const t = new TranscriptRecorder(clock);
    t.record('b', 'out', new TextEncoder().encode('{"a":"é"}'), 1);
    await clock.advance(3);
    t.onFrameFor('b', 2)('in', new TextEncoder().encode('{}'));
    expect(t.entries).toEqual([
      { backendId: 'b', direction: 'out', at: 5, text: '{"a":"é"}', attempt: 1 },
      { backendId: 'b', direction: 'in', at: 8, text: '{}', attempt: 2 },
    ]);
  });

  it('keeps invalid UTF-8 exactly, as base64', () => {
    const t = new TranscriptRecorder(new ManualClock());
    const raw = new Uint8Array([0x7b, 0xff, 0x7d]);
    t.record('b', 'in', raw.subarray(1, 2), 1);
    expect(t.entries[0]).toEqual({ backendId: 'b', direction: 'in', at: 0, base64: '/w==', attempt: 1 });
  });
});
