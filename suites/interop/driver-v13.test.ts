import { describe, expect, it } from 'vitest';
import { DriverCallError } from '../driver/index.js';
import { announcesV13, refusedCapabilities } from './driver-v13.js';

describe('driver protocol v1.3, as the interop runner reads it', () => {
  it('reads the outcomes and advertise features only when announced true', () => {
    expect(announcesV13({ features: { outcomes: true } }, 'outcomes')).toBe(true);
    expect(announcesV13({ features: { advertise: 'yes' } as never }, 'advertise')).toBe(false);
    expect(announcesV13({ features: {} }, 'advertise')).toBe(false);
  });

  it('turns a refusal of the handed-in capabilities into the reason, and no other error', () => {
    const refused = new DriverCallError('invoke', { code: -32602, message: 'cannot enforce inject' });
    expect(refusedCapabilities(refused)).toBe(
      "the driver's harness cannot enforce the scenario's capabilities (cannot enforce inject)",
    );
    expect(
      refusedCapabilities(new DriverCallError('invoke', { code: -32603, message: 'x' })),
    ).toBeUndefined();
    expect(refusedCapabilities(new Error('x'))).toBeUndefined();
  });
});
