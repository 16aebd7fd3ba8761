/**
 * Samples the kit's unit tests share: the expectation of a call answered with a valid `[]`, and a
 * recorded hooks/intercept request of it (override any field).
 */
import type { Expected } from '../case-model.js';
import type { WireFrame } from '../wire-records.js';

export const ANSWERED: Expected = {
  configure: 'accepted',
  decision: 'continue',
  synthetic: false,
  interrupted: false,
  wire: 'delivered',
  audit: { outcome: 'no-effect', policy: 'fail-open' },
  because: 'a valid empty effect list',
  rule: 'valid-result',
  deliveryRule: 'delivery.request-sent',
};

/** The call's first request as the HTTP mock records it, answered with a write. */
export function wireFrame(overrides: Partial<WireFrame> = {}): WireFrame {
  const text = '{"jsonrpc":"2.0","id":"evt-1","method":"hooks/intercept","params":{"event":{"id":"evt-1"}}}';
  return {
    delivery: 1,
    kind: 'request',
    method: 'hooks/intercept',
    transport: 'http',
    connectionId: '1',
    atMs: 0,
    atWallMs: 0,
    bytes: { text },
    hasId: true,
    jsonrpcId: 'evt-1',
    eventId: 'evt-1',
    callId: 'call-1',
    advertised: ['deny'],
    behaviour: { kind: 'respond' },
    actions: [{ type: 'write', afterMs: 0, bytes: { text: '{}' } }],
    ...overrides,
  };
}

/** A frame the mock could not parse (`text` as received), recorded on stdio. */
export function unparseableFrame(
  text: string | { base64: string },
  overrides: Partial<WireFrame> = {},
): WireFrame {
  const {
    method: _method,
    jsonrpcId: _id,
    eventId: _event,
    callId: _call,
    advertised: _ad,
    ...rest
  } = wireFrame({ kind: 'unparseable', transport: 'stdio', hasId: false, actions: [] });
  return { ...rest, bytes: typeof text === 'string' ? { text } : text, ...overrides };
}
