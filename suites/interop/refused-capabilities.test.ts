import { describe, expect, it } from 'vitest';
import { DriverCallError } from '../driver/index.js';
import { refusedCapabilities } from './refused-capabilities.js';

describe('refusedCapabilities', () => {
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
