import { describe, expect, it } from 'vitest';
import type { Action } from '../model.js';
import { actionsFromWire, actionsToWire, frameFromWire, frameToWire } from './wire.js';

describe('control wire forms', () => {
  it('carries frames and actions with invalid UTF-8 bytes intact through JSON', () => {
    const frame = {
      bytes: new Uint8Array([0x7b, 0xff, 0x0a]),
      transport: 'stdio' as const,
      connectionId: '7',
      at: { monotonic: 1.5, wall: 2 },
    };
    const back = frameFromWire(JSON.parse(JSON.stringify(frameToWire(frame))));
    expect(back).toEqual(frame);
    // A framing fault seen by the stdio process reaches the engine on the control server.
    const unterminated = { ...frame, fault: 'unterminated' as const };
    expect(frameFromWire(JSON.parse(JSON.stringify(frameToWire(unterminated))))).toEqual(unterminated);
    const actions: Action[] = [
      { type: 'write', afterMs: 3, bytes: new Uint8Array([0xe2, 0x82]) },
      { type: 'exit', afterMs: 3, code: 2 },
    ];
    expect(actionsFromWire(JSON.parse(JSON.stringify(actionsToWire(actions))))).toEqual(actions);
  });

  it('refuses values that are not frames', () => {
    for (const v of [
      null,
      1,
      {},
      { bytes: { text: 'x' }, transport: 'tcp', connectionId: '1', at: { monotonic: 0, wall: 0 } },
    ]) {
      expect(frameFromWire(v)).toBeUndefined();
    }
  });
});
