// An independent restatement of what a reply to one `hooks/intercept` request means, written from
// the protocol text (the draft's intercept response, effect and failure rules, and the decisions docs/architecture.md records), not from the
// harness code. The robustness run compares the harness against it. Where the text leaves the
// outcome to the implementation, the verdict is `unsure` and only the safety properties apply.
import type { FailureClass } from '../../protocol/failure-classes.js';

/** What the harness must make of one reply it accepted in time. */
export type Verdict =
  | { kind: 'no-effect' }
  | { kind: 'deny'; reason: string; code?: string }
  /** An operational failure; `failureClass` when the text fixes it. */
  | { kind: 'invalid'; failureClass?: FailureClass }
  | { kind: 'unsure'; why: string };

const DENY_FIELDS = new Set(['type', 'reason', 'code', 'extensions']);
const REVERSE_DNS = /^(?:[A-Za-z][A-Za-z0-9_-]*\.)+[A-Za-z][A-Za-z0-9_-]*$/;
/** What the robustness harness advertises at `tool.before`; everything else is unadvertised. */
export const ADVERTISED = ['deny'] as const;

const invalid = (failureClass?: FailureClass): Verdict =>
  failureClass === undefined ? { kind: 'invalid' } : { kind: 'invalid', failureClass };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isResponseId(v: unknown): boolean {
  return (
    v === null ||
    (typeof v === 'string' && v.length > 0) ||
    (typeof v === 'number' && Number.isSafeInteger(v))
  );
}

/** Judges one parsed JSON-RPC message as the reply to `requestId`. */
export function judgeMessage(message: unknown, requestId: string): Verdict {
  if (!isObject(message) || message.jsonrpc !== '2.0' || Object.hasOwn(message, 'method')) {
    return invalid('malformed');
  }
  const hasResult = Object.hasOwn(message, 'result');
  const hasError = Object.hasOwn(message, 'error');
  if (hasResult === hasError || !Object.hasOwn(message, 'id') || !isResponseId(message.id)) {
    return invalid('malformed');
  }
  if (hasError) {
    const error = message.error;
    if (!isObject(error) || !Number.isInteger(error.code) || typeof error.message !== 'string') {
      return invalid('malformed');
    }
    if (message.id !== requestId) return invalid('id-mismatch');
    // -32001 / -32002 are the reserved "unsupported version / event" errors.
    return invalid(error.code === -32001 || error.code === -32002 ? 'unsupported' : 'jsonrpc-error');
  }
  if (message.id !== requestId) return invalid('id-mismatch');
  return judgeResult(message.result);
}

function judgeResult(result: unknown): Verdict {
  if (!isObject(result)) return invalid();
  if (Object.hasOwn(result, 'extensions')) return { kind: 'unsure', why: 'result extensions' };
  if (Object.hasOwn(result, 'manifest')) return invalid();
  if (!Object.hasOwn(result, 'protocolVersion') || !Object.hasOwn(result, 'effects')) {
    return invalid('missing-fields');
  }
  if (typeof result.protocolVersion !== 'string' || !Array.isArray(result.effects)) return invalid();
  if (result.protocolVersion !== 'draft') return invalid('unsupported');
  const effects = result.effects as unknown[];
  if (effects.length === 0) return { kind: 'no-effect' };
  const judged = effects.map(judgeEffect);
  // One bad member rejects the whole response (atomic acceptance).
  if (judged.some((j) => j.kind === 'invalid')) return invalid('invalid-effects');
  if (judged.length > 1) return { kind: 'unsure', why: 'several effects' };
  return judged[0] as Verdict;
}

function judgeEffect(effect: unknown): Verdict {
  if (!isObject(effect) || typeof effect.type !== 'string') return invalid('invalid-effects');
  // Anything but `deny` is either unknown or known and unadvertised: both reject the response.
  if (effect.type !== 'deny') return invalid('invalid-effects');
  if (Object.keys(effect).some((k) => !DENY_FIELDS.has(k))) return invalid('invalid-effects');
  if (typeof effect.reason !== 'string' || effect.reason.length === 0) return invalid('invalid-effects');
  if (Object.hasOwn(effect, 'code') && !(typeof effect.code === 'string' && REVERSE_DNS.test(effect.code))) {
    return invalid('invalid-effects');
  }
  if (Object.hasOwn(effect, 'extensions')) return { kind: 'unsure', why: 'deny extensions' };
  return typeof effect.code === 'string'
    ? { kind: 'deny', reason: effect.reason, code: effect.code }
    : { kind: 'deny', reason: effect.reason };
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const CR = 0x0d;

/**
 * Judges one stdio line (newline removed) as the reply to `requestId`. A frame carries exactly
 * one JSON value in UTF-8 (§5.1); a line longer than the frame cap is a framing violation.
 */
export function judgeLine(line: Uint8Array, requestId: string, maxFrameBytes: number): Verdict {
  const body = line.length > 0 && line[line.length - 1] === CR ? line.subarray(0, line.length - 1) : line;
  if (body.length > maxFrameBytes) return invalid('malformed');
  let text: string;
  try {
    text = fatalUtf8.decode(body);
  } catch {
    return invalid('malformed');
  }
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return invalid('malformed');
  }
  return judgeMessage(message, requestId);
}

/** Judges a complete HTTP 200 JSON body; a leading BOM is left to the implementation. */
export function judgeBody(body: Uint8Array, requestId: string, maxBodyBytes: number): Verdict {
  if (body.length > maxBodyBytes) return invalid('malformed');
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return { kind: 'unsure', why: 'BOM' };
  return judgeLine(body, requestId, Number.POSITIVE_INFINITY);
}

/** Splits `bytes` at every newline; the last element is the unterminated tail (maybe empty). */
export function splitLines(bytes: Uint8Array): { lines: Uint8Array[]; tail: Uint8Array } {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (;;) {
    const nl = bytes.indexOf(0x0a, start);
    if (nl === -1) return { lines, tail: bytes.subarray(start) };
    lines.push(bytes.subarray(start, nl));
    start = nl + 1;
  }
}

const lenientUtf8 = new TextDecoder('utf-8', { fatal: false });
const EFFECTS_KEY = Buffer.from('"effects"');

/**
 * True when any line (or the whole of `bytes`) could, read as leniently as possible, be a no-effect
 * reply to `requestId`. A fail-closed harness that lets a call continue must have seen one.
 */
export function mayHoldNoEffectReply(bytes: Uint8Array, requestId: string): boolean {
  const { lines, tail } = splitLines(bytes);
  const id = Buffer.from(requestId);
  return [...lines, tail, bytes].some((raw) => {
    const line = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    // Without a backslash no JSON escape can hide the id or the key, so both must appear verbatim.
    if (!line.includes(0x5c) && !(line.includes(id) && line.includes(EFFECTS_KEY))) return false;
    try {
      const value = JSON.parse(lenientUtf8.decode(line).replace(/^\uFEFF/, '')) as unknown;
      return (
        isObject(value) &&
        value.id === requestId &&
        isObject(value.result) &&
        Array.isArray(value.result.effects) &&
        value.result.effects.length === 0
      );
    } catch {
      return false;
    }
  });
}
