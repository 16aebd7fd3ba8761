/**
 * AHP-COMP-001 (spec/draft/base/composition.md#AHP-COMP-001): matching interceptors run one at a
 * time, in registration order, and decision-making stops at an accepted deny, an accepted flow
 * stop, an interruption or a fail-closed operational failure; a fail-open failure moves on. Three
 * backends each subscribe one interceptor to tool.before; the second is the one that stops (or
 * does not stop) the chain, so whether the third was asked shows the verdict on the wire.
 */
import type { JsonValue } from '../../../protocol/json.js';
import { isJsonObject } from '../../../protocol/json.js';
import type { ChainCaseSpec } from './chain-cases.js';
import { EXPLICIT_DENY_REASON } from './fail-matrix.js';

const ID = 'AHP-COMP-001';

/** A reply no harness can accept: an operational failure of class `malformed`. */
const MALFORMED = { kind: 'malformed-json' } as const;

/** The reason of the flow stop the second interceptor answers with. */
export const FLOW_STOP_REASON = 'Stop here: the task is done.';

/** Why a flow-stop case is untested, or undefined when the harness advertised flow stop at tool.before. */
export function flowStopUnadvertised(capabilities: JsonValue | undefined): string | undefined {
  const effects = isJsonObject(capabilities) ? capabilities.effects : undefined;
  const flow = isJsonObject(capabilities) ? capabilities.flow : undefined;
  const operations = isJsonObject(flow) ? flow.operations : undefined;
  const advertised =
    Array.isArray(effects) &&
    effects.includes('flow') &&
    Array.isArray(operations) &&
    operations.includes('stop');
  return advertised
    ? undefined
    : 'the harness does not advertise flow stop at tool.before (params.capabilities), so no backend may answer with one';
}

/** The composition cases. */
export function compositionCases(): ChainCaseSpec[] {
  return [
    {
      name: `${ID}/chain:three-interceptors/asked-serially-in-registration-order`,
      requirements: [ID],
      backends: [1, 2, 3].map(() => ({
        subscriptions: ['fail-closed'],
        reply: (m) => ({ kind: 'delay', ms: m.chainReplyDelayMs, then: { kind: 'respond' } }),
      })),
      expect: {
        decision: 'continue',
        asked: [1, 1, 1],
        serial: true,
        because: 'every interceptor answers [] after a short delay',
      },
    },
    {
      name: `${ID}/chain:deny-at-the-2nd/3rd-not-asked`,
      requirements: [ID],
      backends: [
        { subscriptions: ['fail-closed'] },
        { subscriptions: ['fail-closed'], reply: { kind: 'deny', reason: EXPLICIT_DENY_REASON } },
        { subscriptions: ['fail-closed'] },
      ],
      expect: {
        decision: 'deny',
        asked: [1, 1, 0],
        because: 'the 2nd interceptor denies, which ends the chain',
      },
    },
    {
      name: `${ID}/chain:fail-closed-failure-at-the-2nd/3rd-not-asked`,
      requirements: [ID],
      backends: [
        { subscriptions: ['fail-closed'] },
        { subscriptions: ['fail-closed'], reply: MALFORMED },
        { subscriptions: ['fail-closed'] },
      ],
      expect: {
        decision: 'deny',
        asked: [1, 1, 0],
        because: 'the 2nd interceptor fails under fail-closed, which ends the chain with a denial',
      },
    },
    {
      name: `${ID}/chain:fail-open-failure-at-the-2nd/3rd-asked`,
      requirements: [ID],
      backends: [
        { subscriptions: ['fail-closed'] },
        { subscriptions: ['fail-open'], reply: MALFORMED },
        { subscriptions: ['fail-closed'] },
      ],
      expect: {
        decision: 'continue',
        asked: [1, 1, 1],
        because:
          'the 2nd interceptor fails under fail-open, so the chain goes on to the 3rd, which answers []',
      },
    },
    {
      // The 2nd is fail-open: a harness that let its pending request run out instead of stopping
      // at the interruption would go on to the 3rd. Over stdio the cancellation may come before a
      // backend process has read the 1st request, so only the 3rd is judged.
      name: `${ID}/chain:interrupted-while-the-2nd-is-pending/3rd-not-asked`,
      requirements: [ID],
      cancel: true,
      backends: [
        { subscriptions: ['fail-closed'] },
        { subscriptions: ['fail-open'], reply: { kind: 'hang' } },
        { subscriptions: ['fail-open'] },
      ],
      expect: {
        decision: 'not-continue',
        asked: [undefined, undefined, 0],
        because: 'the call is cancelled while the 2nd interceptor has not answered',
      },
    },
    {
      // Every interceptor is fail-open: a harness that took the flow stop for an invalid answer
      // would go on to the 3rd. A stop is not a deny: it holds when reported as decision deny (v1
      // drivers) or as flow "stop" with executed false (v1.3); see kit/goes-ahead.ts.
      name: `${ID}/chain:flow-stop-at-the-2nd/3rd-not-asked`,
      requirements: [ID],
      precondition: flowStopUnadvertised,
      backends: [
        { subscriptions: ['fail-open'] },
        {
          subscriptions: ['fail-open'],
          reply: {
            kind: 'respond',
            effects: [{ type: 'flow', operation: 'stop', reason: FLOW_STOP_REASON }],
          },
        },
        { subscriptions: ['fail-open'] },
      ],
      expect: {
        decision: 'not-continue',
        asked: [1, 1, 0],
        because:
          'the 2nd interceptor stops the flow, which ends decision-making and the pending tool call (report it as a deny, or as flow "stop" with executed false)',
      },
    },
  ];
}
