/**
 * Property (AHP-FAIL-001): over generated corrupt byte streams from the backend (random bytes,
 * cut-off replies, JSON that is no JSON-RPC response for this request), a harness under
 * fail-closed never continues: every such reply is an operational failure, so the call is a
 * synthetic deny. The bytes never carry the request's id, so none can be a valid reply. The class
 * such bytes belong to is no single one, so the property judges no audit class (AHPX-FAIL-007 is
 * judged by the failure-class cases, each with its class).
 */
import fc from 'fast-check';
import { driverCase } from '../kit/define.js';
import type { Behaviour } from '../../../mock-backend/index.js';
import type { HarnessFixture } from '../kit/fixture.js';
import type { HarnessTransport } from '../kit/timing.js';
import { finding } from '../kit/rules.js';
import { assertProperty, propertyTransportOrUntested, runCallPlan } from './properties-support.js';

const VALID_LOOKING_REPLY =
  '{"jsonrpc":"2.0","id":"evt-other","result":{"protocolVersion":"draft","effects":[]}}';

/** Byte streams that are no JSON value: random bytes, a cut-off reply, bytes that are no UTF-8. */
const notJson: readonly fc.Arbitrary<Uint8Array>[] = [
  fc.uint8Array({ minLength: 0, maxLength: 48 }),
  fc
    .integer({ min: 0, max: VALID_LOOKING_REPLY.length - 1 })
    .map((n) => Buffer.from(VALID_LOOKING_REPLY.slice(0, n))),
  fc.constant(Buffer.from('\u00ff\u00fe')),
];

/** Whole JSON values that are no JSON-RPC response to the request. */
const strayJson: readonly fc.Arbitrary<Uint8Array>[] = [
  fc
    .constantFrom(VALID_LOOKING_REPLY, '[]', 'null', '{}', '{"jsonrpc":"1.0","result":{}}')
    .map((t) => Buffer.from(t)),
  fc.json().map((t) => Buffer.from(t)),
];

/**
 * Byte streams that cannot be a valid reply to the request over `transport`. On persistent stdio
 * a whole JSON value without the request's id answers nothing: the harness reads past it and waits
 * for its own reply until the deadline (stdio.md, "Persistent lifecycle"; judged by
 * stray-reply-cases.ts), so such a draw would only spend the answer deadline here.
 */
const corruptOver = (transport: HarnessTransport): fc.Arbitrary<Uint8Array> =>
  transport === 'stdio-persistent' ? fc.oneof(...notJson) : fc.oneof(...notJson, ...strayJson);

/** Declares the property's case on the file's fixture. */
export function declareCorruptProperty(fixture: HarnessFixture): void {
  driverCase(
    fixture,
    {
      name: 'AHP-FAIL-001/property/corrupt-byte-streams-never-continue-under-fail-closed',
      requirements: ['AHP-FAIL-001'],
      transports: ['http', 'stdio-persistent'],
      timeoutMs: 120_000,
    },
    {},
    async (ctx, state) => {
      const arbitrary = propertyTransportOrUntested(state, ctx).chain((transport) =>
        fc.record({ transport: fc.constant(transport), bytes: corruptOver(transport) }),
      );
      await assertProperty(state, ctx, arbitrary, async ({ transport, bytes }) => {
        // On stdio a frame needs its newline; without one the call would only end at the deadline.
        const framed = transport === 'http' ? bytes : Buffer.concat([bytes, Buffer.from('\n')]);
        const behaviour: Behaviour = {
          kind: 'raw',
          chunks: [{ base64: Buffer.from(framed).toString('base64') }],
        };
        const run = await runCallPlan(
          state,
          {
            transport,
            policies: ['fail-closed'],
            deliveries: [behaviour],
            timeoutMs: state.margins.answerDeadlineMs,
          },
          1,
        );
        const { decision, synthetic } = run.result;
        if (decision === 'deny' && synthetic) return [];
        return [
          finding(
            'failure-policy',
            `a corrupt reply under fail-closed settled "${decision}"${decision === 'deny' ? ' as an explicit deny' : ''}`,
            { way: 'fail-closed' },
          ),
        ];
      });
    },
  );
}
