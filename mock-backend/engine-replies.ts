/**
 * The bytes of every reply-shaped behaviour. Well-formed replies are plain JSON-RPC objects whose
 * id mirrors the request; misbehaviours are built as raw bytes here, beneath any JSON-RPC library,
 * so nothing "repairs" them on the way out.
 */
import type { JsonObject, JsonValue } from '../protocol/json.js';
import type { JsonRpcId, JsonRpcResponse } from '../protocol/wire-types.js';
import type { Behaviour, Transport } from './model.js';

/** What a reply is built from. */
export interface ReplyContext {
  transport: Transport;
  /** The request id, or null for a notification or an unparseable frame. */
  replyId: JsonRpcId;
  /** The request's `params.protocolVersion`, or the project's primary revision. */
  protocolVersion: string;
}

const encoder = new TextEncoder();

/** Default deny reason of the `deny` behaviour. */
export const DEFAULT_DENY_REASON = 'Denied by the mock backend scenario.';

/** Standard messages for the codes a scenario is most likely to send. */
const ERROR_MESSAGES: Readonly<Record<number, string>> = {
  [-32700]: 'Parse error',
  [-32600]: 'Invalid Request',
  [-32601]: 'Method not found',
  [-32602]: 'Invalid params',
  [-32603]: 'Internal error',
  [-32001]: 'Unsupported protocol version',
  [-32002]: 'Unsupported event',
  [-32003]: 'Backend unavailable',
  [-32004]: 'Backend internal error',
};

/** The message used for an error code when the scenario gives none. */
export function defaultErrorMessage(code: number): string {
  return ERROR_MESSAGES[code] ?? 'Error';
}

/** Text to bytes; a stdio frame gets its newline, an HTTP body does not. */
export function framed(ctx: ReplyContext, text: string): Uint8Array {
  // Buffer.from slices node's shared pool instead of allocating a buffer per reply (TextEncoder
  // does); the plain Uint8Array view keeps the action's type what it always was.
  const buf = Buffer.from(ctx.transport === 'stdio' ? `${text}\n` : text, 'utf8');
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/** The `result` object of a success reply. */
export function successResult(
  ctx: ReplyContext,
  b: { effects?: JsonValue; protocolVersion?: string; omit?: readonly string[]; extensions?: JsonObject },
): JsonObject {
  const result: JsonObject = {};
  const omit = b.omit ?? [];
  if (!omit.includes('protocolVersion')) result.protocolVersion = b.protocolVersion ?? ctx.protocolVersion;
  if (!omit.includes('effects')) result.effects = b.effects ?? [];
  if (b.extensions !== undefined) result.extensions = b.extensions;
  return result;
}

/** A well-formed success reply object. */
export function successMessage(ctx: ReplyContext, effects: JsonValue = []): JsonRpcResponse {
  return { jsonrpc: '2.0', id: ctx.replyId, result: successResult(ctx, { effects }) };
}

type ReplyKind = Extract<
  Behaviour,
  { kind: 'respond' | 'deny' | 'rpc-error' | 'mismatched-id' | 'not-jsonrpc' | 'malformed-json' }
>;

/** The JSON text (one line) of a reply-shaped behaviour. */
export function replyText(ctx: ReplyContext, b: ReplyKind): string {
  const id = ctx.replyId;
  switch (b.kind) {
    case 'respond':
      if (isPlainRespond(b)) return plainSuccessText(ctx);
      return JSON.stringify({ jsonrpc: '2.0', id, result: successResult(ctx, b) });
    case 'deny': {
      const deny: JsonObject = { type: 'deny', reason: b.reason ?? DEFAULT_DENY_REASON };
      if (b.code !== undefined) deny.code = b.code;
      return JSON.stringify(successMessage(ctx, [deny]));
    }
    case 'rpc-error': {
      const error: JsonObject = { code: b.code, message: b.message ?? defaultErrorMessage(b.code) };
      if (b.data !== undefined) error.data = b.data;
      return JSON.stringify({ jsonrpc: '2.0', id, error });
    }
    case 'mismatched-id':
      return JSON.stringify(successMessage({ ...ctx, replyId: b.id }));
    case 'not-jsonrpc':
      return JSON.stringify(notJsonRpc(ctx, b.variant));
    case 'malformed-json':
      // Default: a reply cut off inside the effects array.
      return (
        b.text ??
        `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"protocolVersion":"${ctx.protocolVersion}","effects":[`
      );
  }
}

function isPlainRespond(b: Extract<Behaviour, { kind: 'respond' }>): boolean {
  return (
    b.effects === undefined &&
    b.protocolVersion === undefined &&
    b.omit === undefined &&
    b.extensions === undefined
  );
}

/**
 * The default `[]` success, byte for byte what JSON.stringify makes of it, built without the
 * nested objects (it is the reply of almost every frame; engine-replies.test.ts pins the bytes).
 */
export function plainSuccessText(ctx: ReplyContext): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(ctx.replyId)},"result":{"protocolVersion":${JSON.stringify(
    ctx.protocolVersion,
  )},"effects":[]}}`;
}

function notJsonRpc(
  ctx: ReplyContext,
  variant: Extract<Behaviour, { kind: 'not-jsonrpc' }>['variant'],
): JsonValue {
  const result = successResult(ctx, {});
  const id = ctx.replyId;
  switch (variant) {
    case 'no-jsonrpc':
      return { id, result };
    case 'result-and-error':
      return { jsonrpc: '2.0', id, result, error: { code: -32603, message: 'Internal error' } };
    case 'batch':
      return [{ jsonrpc: '2.0', id, result }];
    case 'wrong-jsonrpc':
      return { jsonrpc: '1.0', id, result };
    case 'no-id':
      return { jsonrpc: '2.0', result };
  }
}

/** A success `[]` reply whose deny reason holds the invalid sequence E2 82 28, cut after E2 82 when split. */
export function malformedUtf8Parts(ctx: ReplyContext): [Uint8Array, Uint8Array] {
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(ctx.replyId)},"result":{"protocolVersion":${JSON.stringify(
    ctx.protocolVersion,
  )},"effects":[{"type":"deny","reason":"bad `;
  // E2 opens a three-byte sequence; 82 continues it; 28 ('(') is not a continuation byte.
  const first = new Uint8Array([...encoder.encode(head), 0xe2, 0x82]);
  const second = new Uint8Array([0x28, ...framed(ctx, ' utf-8"}]}}')]);
  return [first, second];
}
