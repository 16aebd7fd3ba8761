import { describe, expect, it } from 'vitest';
import { validateRegistration } from '../../../protocol/registration.js';
import { caseRegistration, type MockEndpoints } from '../kit/registration.js';
import { baseCase, MUST_REFUSE, REFUSE_OR_SERVE } from './registration-load-cases.js';

const ENDPOINTS: MockEndpoints = {
  stdio: ['/usr/bin/node', '/tmp/mock.mjs'],
  httpUrl: 'http://127.0.0.1:40123/',
  refusedUrl: 'http://127.0.0.1:9/',
};

describe('the load-time registrations', () => {
  it('start from a valid registration, and each one to refuse is invalid by the draft only for its shape', () => {
    expect(validateRegistration(caseRegistration(baseCase('http'), ENDPOINTS, 1000)).ok).toBe(true);
    const paths = MUST_REFUSE.map((shape) => {
      const registration = caseRegistration(baseCase('http'), ENDPOINTS, 1000);
      shape.edit(registration);
      const check = validateRegistration(registration);
      return check.ok ? [] : check.violations.map((v) => v.path);
    });
    expect(paths).toEqual([
      ['$.hooks[1].id'],
      ['$.hooks[0].subscriptions[0].events[1]'],
      ['$.hooks[0].subscriptions[0].disableable'],
    ]);
  });

  it('serve, when accepted, a registration the draft holds valid', () => {
    for (const shape of REFUSE_OR_SERVE) {
      const served = shape.served('stdio-persistent', 0);
      expect(validateRegistration(caseRegistration(served, ENDPOINTS, 1000)).ok, shape.label).toBe(true);
    }
  });
});
