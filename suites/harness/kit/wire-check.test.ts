import { describe, expect, it } from 'vitest';
import type { InvokeResult } from '../../driver/index.js';
import { ANSWERED, wireFrame } from './test-support/wire-samples.js';
import { checkWire } from './wire-check.js';
import type { CaseRecords, WireFrame } from './wire-records.js';

const ID = 'dev.ahp-conformance.mock';
const expected = ANSWERED;
const answer: InvokeResult = {
  decision: 'continue',
  synthetic: false,
  interrupted: false,
  eventId: 'evt-1',
  audit: [{ backendId: ID, outcome: 'no-effect', attempts: 1 }],
};
const request = wireFrame;

const records = (...frames: WireFrame[]): CaseRecords => ({
  frames,
  requests: frames.filter((f) => f.method === 'hooks/intercept'),
  notifications: frames.filter((f) => f.method === 'hooks/observe'),
});

const verdict = (r: CaseRecords, more: Partial<Parameters<typeof checkWire>[0]> = {}) =>
  checkWire({ expected, result: answer, records: r, backendId: ID, ...more });
/** The messages of the findings, and the rules they name. */
const check = (r: CaseRecords, more: Partial<Parameters<typeof checkWire>[0]> = {}) => {
  const { findings, untested } = verdict(r, more);
  return { problems: findings.map((f) => f.message), rules: findings.map((f) => f.rule), untested };
};

describe('checkWire', () => {
  it('accepts a delivery that matches the answer', () => {
    expect(verdict(records(request()))).toEqual({ findings: [] });
  });

  it('a decision with no request on the wire fails', () => {
    expect(check(records()).problems).toEqual([
      'the driver reported "continue" but no hooks/intercept request for this call reached the mock',
      'the audit reports 1 attempt(s) but the mock received 0 request(s)',
      'the audit says the backend answered ("no-effect") but the mock wrote no reply for this call',
    ]);
    expect(check(records()).rules).toEqual([
      'delivery.request-sent',
      'audit.attempts',
      'audit.answer-without-reply',
    ]);
  });

  it('a delivery that must not happen fails', () => {
    const none = { ...expected, wire: 'none' as const, because: 'the bearer token variable is not set' };
    const undelivered = { ...none, deliveryRule: 'delivery.no-unauthenticated-fallback' as const };
    const found = check(records(request()), { expected: undelivered });
    expect(found.problems[0]).toMatch(/received 1 frame\(s\).*nothing may be delivered/);
    // Whether a call may be delivered is the expectation's delivery rule.
    expect(found.rules[0]).toBe('delivery.no-unauthenticated-fallback');
  });

  it('the JSON-RPC id must equal the event id', () => {
    expect(check(records(request({ jsonrpcId: 'other' }))).problems).toEqual([
      'delivery 1: the JSON-RPC id "other" is not the event id "evt-1"',
    ]);
    expect(check(records(request({ hasId: false }))).problems).toHaveLength(1);
    expect(check(records(request({ jsonrpcId: 'other' }))).rules).toEqual(['intercept.id-is-event-id']);
  });

  it('repeated deliveries must be byte-identical, and attempts must match the recordings', () => {
    const second = request({ delivery: 2, bytes: { text: '{"different":true}' } });
    const problems = check(records(request(), second)).problems;
    expect(problems).toContain('delivery 2 repeats the call with bytes that differ from delivery 1');
    expect(problems).toContain('the audit reports 1 attempt(s) but the mock received 2 request(s)');
    expect(check(records(request(), second)).rules).toEqual(['retry.identical-bytes', 'audit.attempts']);
  });

  it('the reported event id must be the one on the wire', () => {
    expect(check(records(request({ eventId: 'evt-9', jsonrpcId: 'evt-9' }))).problems).toEqual([
      'the driver reports event id "evt-1" but the wire carried "evt-9"',
    ]);
  });

  it('every HTTP request of an auth case carries the exact credentials', () => {
    const auth = { authorization: 'Bearer t0k' };
    expect(check(records(request({ authorization: 'Bearer t0k' })), auth).problems).toEqual([]);
    expect(check(records(request()), auth).problems).toEqual([
      'delivery 1 reached the backend without credentials',
    ]);
    expect(check(records(request({ authorization: 'Bearer nope' })), auth).problems).toEqual([
      'delivery 1 reached the backend with the wrong credentials',
    ]);
  });

  it('an unadvertised-effect case is untested when the harness advertised that effect', () => {
    const unadvertised = { ...expected, unadvertised: ['return'] };
    expect(
      check(records(request({ advertised: ['deny', 'return'] })), { expected: unadvertised }).untested,
    ).toMatch(/advertised return/);
    expect(check(records(request()), { expected: unadvertised }).untested).toBeUndefined();
  });
});
