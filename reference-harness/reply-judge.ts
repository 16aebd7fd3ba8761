import type { FailureClass } from '../protocol/failure-classes.js';
import type { JsonValue, Violation } from '../protocol/json.js';
import { checkResponseEnvelope, idsEqual } from '../protocol/jsonrpc.js';
import { checkInterceptResult } from '../protocol/messages.js';
import { AHP_ERROR_CODES, type Capabilities, type Effect } from '../protocol/wire-types.js';
import type { TransportFailure, TransportReply } from './transport.js';

/** The boundary a reply is judged at: what was asked, and what was advertised. */
export interface ReplyContext {
  requestId: string;
  protocolVersion: string;
  eventType: string;
  capabilities: Capabilities;
  event: JsonValue;
}

/** An acceptable intercept result, or the operational failure it amounts to. */
export type ReplyVerdict =
  { ok: true; effects: Effect[]; unknownEnvelopeFields: string[] } | { ok: false; failure: TransportFailure };

function failure(failureClass: FailureClass, code: string, detail: string): ReplyVerdict {
  return { ok: false, failure: { failureClass, code, detail } };
}

function describe(violations: Violation[]): string {
  return violations.map((v) => `${v.path}: ${v.message}`).join('; ');
}

/**
 * Classifies one reply, in order: transport failure (as reported), JSON-RPC envelope
 * (`malformed`), id (`id-mismatch`, a null id included), error object (`unsupported` for
 * -32001/-32002, else `jsonrpc-error`), then the result as a whole (`missing-fields`,
 * `unsupported`, `invalid-effects`: one bad member rejects the whole response).
 */
export function judgeReply(reply: TransportReply, ctx: ReplyContext): ReplyVerdict {
  if (!reply.ok) return { ok: false, failure: reply.failure };
  const envelope = checkResponseEnvelope(reply.message);
  if (envelope.kind === 'invalid') {
    return failure('malformed', 'jsonrpc.invalid-envelope', describe(envelope.violations));
  }
  if (!idsEqual(envelope.id, ctx.requestId)) {
    return failure(
      'id-mismatch',
      'jsonrpc.id-mismatch',
      `expected id ${JSON.stringify(ctx.requestId)}, got ${JSON.stringify(envelope.id)}`,
    );
  }
  if (envelope.kind === 'error') {
    const { code, message } = envelope.error;
    const detail = `JSON-RPC error ${code}: ${message}`;
    if (code === AHP_ERROR_CODES.unsupportedProtocolVersion)
      return failure('unsupported', 'jsonrpc.unsupported-protocol-version', detail);
    if (code === AHP_ERROR_CODES.unsupportedEvent)
      return failure('unsupported', 'jsonrpc.unsupported-event', detail);
    return failure('jsonrpc-error', 'jsonrpc.error-response', detail);
  }
  const check = checkInterceptResult(envelope.result, {
    protocolVersion: ctx.protocolVersion,
    eventType: ctx.eventType,
    capabilities: ctx.capabilities,
    event: ctx.event,
  });
  if (!check.ok)
    return failure(
      check.failureClass,
      resultCode(check.failureClass, check.violations),
      describe(check.violations),
    );
  return { ok: true, effects: check.effects, unknownEnvelopeFields: check.unknownEnvelopeFields };
}

function resultCode(failureClass: FailureClass, violations: Violation[]): string {
  if (failureClass === 'missing-fields') return 'result.missing-fields';
  if (failureClass === 'unsupported') return 'result.protocol-version';
  // The most telling effect problem names the code: unknown, malformed, unadvertised, ...
  const problem = violations.map((v) => (v as { problem?: string }).problem).find((p) => p !== undefined);
  return `result.effect-${problem ?? 'invalid'}`;
}
