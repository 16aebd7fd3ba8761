import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../protocol/clock.js';
import type { FailureClass, FailurePolicy } from '../protocol/failure-classes.js';
import { FakeTransport, resultFor, type FakeStep } from './fake-transport.js';
import { createHarnessWith } from './harness.js';
import { SYNTHETIC_DENIAL_REASON } from './synthetic-denial.js';
import { advanceBy } from './test-clocks.js';
import { optionsFor, registrationOf, toolCall, type SubSpec } from './test-support.js';

type Outcome = 'no-effect' | 'deny' | FailureClass;
const OUTCOMES: Outcome[] = [
  'no-effect',
  'deny',
  'deadline-exceeded',
  'connection',
  'process',
  'auth',
  'http-status',
  'malformed',
  'id-mismatch',
  'jsonrpc-error',
  'unsupported',
  'missing-fields',
  'invalid-effects',
];
const TIMEOUT_MS = 10;

/** How a fake backend produces each outcome on the wire (or below it, for transport classes). */
function stepFor(outcome: Outcome, frame: string): FakeStep {
  const id = (JSON.parse(frame) as { id: string }).id;
  switch (outcome) {
    case 'no-effect':
      return { kind: 'reply', message: resultFor(frame, []) };
    case 'deny':
      return { kind: 'reply', message: resultFor(frame, [{ type: 'deny', reason: `deny by ${id}` }]) };
    case 'deadline-exceeded':
      return { kind: 'hang' };
    case 'malformed':
      return { kind: 'reply', message: { jsonrpc: '2.0', id, result: {}, error: { code: 1, message: 'x' } } };
    case 'id-mismatch':
      return {
        kind: 'reply',
        message: { jsonrpc: '2.0', id: `${id}-x`, result: { protocolVersion: 'draft', effects: [] } },
      };
    case 'jsonrpc-error':
      return { kind: 'reply', message: { jsonrpc: '2.0', id, error: { code: -32603, message: 'internal' } } };
    case 'unsupported':
      return { kind: 'reply', message: { jsonrpc: '2.0', id, error: { code: -32002, message: 'event' } } };
    case 'missing-fields':
      return { kind: 'reply', message: { jsonrpc: '2.0', id, result: { protocolVersion: 'draft' } } };
    case 'invalid-effects':
      return { kind: 'reply', message: resultFor(frame, [{ type: 'deny', reason: 'r' }, { type: 'ask' }]) };
    default:
      return { kind: 'fail', failureClass: outcome, code: `fake.${outcome}` };
  }
}

/** The seed's rules, independently: serial, [] moves on, deny stops, failures go through the policy. */
function model(chain: Array<{ policy: FailurePolicy; outcome: Outcome }>) {
  const called: number[] = [];
  for (const [i, link] of chain.entries()) {
    called.push(i);
    if (link.outcome === 'no-effect') continue;
    if (link.outcome === 'deny')
      return { decision: 'deny', synthetic: false, reason: `deny by evt_1`, called };
    if (link.policy === 'fail-closed')
      return { decision: 'deny', synthetic: true, reason: SYNTHETIC_DENIAL_REASON, called };
  }
  return { decision: 'continue', synthetic: false, reason: undefined, called };
}

const link = fc.record({
  policy: fc.constantFrom<FailurePolicy>('fail-open', 'fail-closed'),
  outcome: fc.constantFrom(...OUTCOMES),
});

describe('settled decision (property)', () => {
  it('equals the model of the failure semantics for any chain of interceptors and outcomes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(link, { minLength: 0, maxLength: 5 }), async (chain) => {
        const clock = new ManualClock();
        const transports: Record<string, FakeTransport> = {};
        const backends: Array<{ id: string; subs: SubSpec[] }> = chain.map((l, i) => {
          const id = `com.example.b${i}`;
          transports[id] = new FakeTransport(clock, (frame) => stepFor(l.outcome, frame));
          return { id, subs: [{ mode: 'intercept', policy: l.policy, timeoutMs: TIMEOUT_MS }] };
        });
        // An observer is always there, so the registration is never empty and settlement is visible.
        const observer = new FakeTransport(clock, () => ({ kind: 'hang' }));
        transports['com.example.obs'] = observer;
        backends.push({ id: 'com.example.obs', subs: [{ mode: 'observe' }] });
        const h = createHarnessWith(optionsFor(clock, registrationOf(backends), transports), undefined);
        const p = h.invoke(toolCall());
        await advanceBy(clock, TIMEOUT_MS * chain.length + 1);
        const r = await p;
        const expected = model(chain);
        expect(r.decision).toBe(expected.decision);
        expect(r.synthetic).toBe(expected.synthetic);
        expect(r.reason).toBe(expected.reason);
        expect(r.interrupted).toBe(false);
        const shortCircuit = expected.decision === 'deny';
        const observed = JSON.parse(observer.deliveries[0]?.frame ?? '{}') as {
          params?: { event?: unknown };
        };
        expect(observer.deliveries.map((d) => d.method)).toEqual(['notify']);
        expect(observed.params?.event).toEqual(r.effectiveEvent);
        chain.forEach((l, i) => {
          const t = transports[`com.example.b${i}`] as FakeTransport;
          const wasCalled = expected.called.includes(i);
          expect(t.deliveries.map((d) => d.method)).toEqual(
            wasCalled ? ['request'] : shortCircuit ? ['notify'] : [],
          );
          const record = r.audit.find((a) => a.mode === 'intercept' && a.backendId === `com.example.b${i}`);
          if (!wasCalled) return expect(record?.outcome).toBe('skipped');
          if (l.outcome === 'no-effect' || l.outcome === 'deny')
            return expect(record?.outcome).toBe(l.outcome);
          expect(record).toMatchObject({
            outcome: 'operational-failure',
            failureClass: l.outcome,
            policy: l.policy,
          });
          expect(record?.synthetic).toBe(l.policy === 'fail-closed' ? true : undefined);
        });
      }),
      { numRuns: 150 },
    );
  });
});
