import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BUILTIN_SCENARIOS } from './builtins.js';
import { initialState, step } from './engine.js';
import { frameOf, interceptRequest, observeNotification } from './engine-test-frames.js';
import type { EngineState, InboundFrame, Scenario, Transport } from './model.js';
import { entriesOf } from './recorded-delivery.js';

/** Scenarios whose decisions read the state: rule counters, attempt numbers, the PRNG, delivery numbers. */
const STATEFUL: Scenario[] = [
  {
    seed: 7,
    rules: [
      { match: { attempt: { min: 2 } }, behaviour: { kind: 'deny' }, times: 3 },
      {
        match: { toolName: 'Seq' },
        behaviour: { kind: 'sequence', steps: [{ kind: 'hang' }, { kind: 'respond' }] },
      },
      { match: { delivery: { max: 4 } }, behaviour: { kind: 'rpc-error', code: -32003 } },
      {
        behaviour: {
          kind: 'probability',
          p: 0.5,
          behaviour: { kind: 'delay', ms: 5, then: { kind: 'deny' } },
          otherwise: { kind: 'respond' },
        },
      },
    ],
  },
  { rules: [], http: { requireBearer: { token: 't' } } },
];

const scenario: fc.Arbitrary<{ scenario: Scenario; transports: readonly Transport[] }> = fc.oneof(
  fc.constantFrom(...Object.values(BUILTIN_SCENARIOS)),
  fc.constantFrom(...STATEFUL).map((s) => ({ scenario: s, transports: ['stdio', 'http', 'msw'] as const })),
);

/** A frame as a harness (or a broken one) might send it, over one of the scenario's transports. */
const frame = (transports: readonly Transport[]): fc.Arbitrary<InboundFrame> =>
  fc
    .tuple(
      fc.oneof(
        fc
          .record({ eventId: fc.constantFrom('a', 'b', 'c'), tool: fc.constantFrom('Bash', 'Seq') })
          .map((o) => frameOf(interceptRequest(o)).bytes),
        fc.constantFrom('a', 'b').map((id) => frameOf(observeNotification(id)).bytes),
        fc.uint8Array({ maxLength: 40 }),
      ),
      fc.constantFrom(...transports),
      fc.integer({ min: 0, max: 10_000 }),
      fc.constantFrom(undefined, 'unterminated' as const),
    )
    .map(([bytes, transport, at, fault]) => {
      const f = frameOf(bytes, transport, { at });
      return fault === undefined || transport !== 'stdio' ? f : { ...f, fault };
    });

/** Freezes every object and array reachable from `value` (typed arrays cannot be frozen; they are compared instead). */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value) || Object.isFrozen(value)) {
    return value;
  }
  for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}

describe('engine step: a pure function', () => {
  it('steps one state twice to equal results, and leaves the state, scenario and frame as they were', () => {
    fc.assert(
      fc.property(
        scenario.chain(({ scenario: s, transports }) =>
          fc.record({
            scenario: fc.constant(s),
            history: fc.array(frame(transports), { maxLength: 12 }),
            next: frame(transports),
          }),
        ),
        ({ scenario: s, history, next }) => {
          let state: EngineState = initialState(s);
          for (const f of history) state = step(s, state, f).state;
          const stateBefore = structuredClone(state);
          const scenarioBefore = structuredClone(s);
          const frameBefore = structuredClone(next);
          deepFreeze(state);
          deepFreeze(next);

          const first = step(s, state, next);
          const second = step(s, state, next);

          expect(second).toEqual(first);
          expect(entriesOf(second.recorded)).toEqual(entriesOf(first.recorded));
          // A write into a frozen value would throw, which the engine reports as an engine error.
          expect(
            entriesOf(first.recorded).filter((e) => e.type === 'violation' && e.code === 'engine-error'),
          ).toEqual([]);
          expect(state).toEqual(stateBefore);
          expect(s).toEqual(scenarioBefore);
          expect(next).toEqual(frameBefore);
          // The next state is plain data too.
          expect(structuredClone(first.state)).toEqual(first.state);
          expect(JSON.parse(JSON.stringify(first.state))).toEqual(first.state);
        },
      ),
      { numRuns: 300 },
    );
  });
});
