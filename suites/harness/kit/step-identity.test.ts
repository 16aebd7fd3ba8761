import { describe, expect, it } from 'vitest';
import {
  CaseSteps,
  frameIdentities,
  identifiesAs,
  issuedBySuite,
  type IdentifiedFrame,
} from './step-identity.js';

const issued = issuedBySuite('p');
/** Two steps as run-case makes them: suggested event id and call id each. */
function twoSteps(): CaseSteps {
  const steps = new CaseSteps(
    [
      ['evt-p-1', 'call-p-1'],
      ['evt-p-2', 'call-p-2'],
    ],
    issued,
  );
  steps.begin(0, 1000);
  return steps;
}
const frame = (fields: Omit<IdentifiedFrame, 'atWallMs'>, atWallMs = 1010): IdentifiedFrame => ({
  ...fields,
  atWallMs,
});

describe('CaseSteps.stepOf', () => {
  it('attributes a frame by any one identity field alone', () => {
    const steps = twoSteps();
    steps.begin(1, 2000);
    // Each field alone, the others absent or carrying values the suite never gave.
    expect(steps.stepOf(frame({ jsonrpcId: 'evt-p-1' }, 2500))).toBe(0);
    expect(steps.stepOf(frame({ jsonrpcId: 7, eventId: 'evt-p-1' }, 2500))).toBe(0);
    expect(steps.stepOf(frame({ eventId: 'own-1', callId: 'call-p-1' }, 2500))).toBe(0);
    expect(steps.stepOf(frame({ eventId: 'own-1', toolCallId: 'call-p-1' }, 2500))).toBe(0);
    expect(steps.stepOf(frame({ eventId: 'own-2', toolCallId: 'call-p-2' }, 1500))).toBe(1);
  });

  it('adds the event id the harness reported for a step', () => {
    const steps = twoSteps();
    steps.begin(1, 2000);
    steps.addId(0, 'harness-own');
    expect(steps.stepOf(frame({ jsonrpcId: 1, eventId: 'harness-own' }, 2500))).toBe(0);
  });

  it('attributes a frame that identifies with no step by the step during which it arrived', () => {
    const steps = twoSteps();
    const anonymous = (at: number) => frame({ jsonrpcId: 3, eventId: 'harness-made' }, at);
    expect(steps.stepOf(anonymous(1500))).toBe(0);
    steps.begin(1, 2000);
    expect(steps.stepOf(anonymous(1999))).toBe(0);
    expect(steps.stepOf(anonymous(2000))).toBe(1);
    expect(steps.stepOf(frame({}, 2100))).toBe(1);
    // Before the first step began, a frame belongs to none (the mock was reset for this case).
    expect(steps.stepOf(anonymous(900))).toBeUndefined();
  });

  it("keeps a straggler of step 1 that arrives during step 2 with step 1's identity", () => {
    const steps = twoSteps();
    steps.begin(1, 2000);
    expect(steps.stepOf(frame({ jsonrpcId: 'evt-p-1', eventId: 'evt-p-1', callId: 'call-p-1' }, 2400))).toBe(
      0,
    );
    expect(steps.stepOf(frame({ eventId: 'x', toolCallId: 'call-p-1' }, 2400))).toBe(0);
    expect(steps.of(1)(frame({ eventId: 'x', toolCallId: 'call-p-1' }, 2400))).toBe(false);
  });

  it("gives no step a frame of another call the suite raised (a previous case's straggler)", () => {
    const steps = twoSteps();
    expect(steps.stepOf(frame({ eventId: 'evt-p-0', callId: 'call-p-0' }))).toBeUndefined();
    expect(steps.stepOf(frame({ eventId: 'own', toolCallId: 'call-p-0' }))).toBeUndefined();
    expect(steps.stepOf(frame({ eventId: 'evt-q-1' }))).toBe(0);
    // An id the harness made from one of the suite's is its own: the frame arrived during step 1.
    expect(steps.stepOf(frame({ jsonrpcId: 'evt-p-0-retry1', eventId: 'evt-p-0-retry1' }))).toBe(0);
    expect(issued('evt-p-12')).toBe(true);
    expect(issuedBySuite('a.b')('evt-aXb-1')).toBe(false);
  });
});

describe('frame identities', () => {
  it('reads the string values of the four identity fields', () => {
    const f = frame({ jsonrpcId: 5, eventId: 'e', callId: 'c', toolCallId: 't' });
    expect(frameIdentities(f)).toEqual(['e', 'c', 't']);
    expect(identifiesAs(f, ['t'])).toBe(true);
    expect(identifiesAs(f, ['5'])).toBe(false);
  });
});
