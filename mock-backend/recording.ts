/**
 * Recordings: the entries the engine emits (inbound frames with exact bytes, planned outbound
 * actions, violations), their JSON form, and the queries suites need. Entry types live in model.ts.
 */
import { isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';
import type { Action, Bytes, InboundRecord, RecordedAction, RecordEntry, ViolationRecord } from './model.js';

/** The JSON document a recording is read and written as. */
export interface RecordingDocument {
  format: 'ahp-mock-recording';
  version: 1;
  entries: RecordEntry[];
}

/**
 * A fatal UTF-8 decoder that keeps a BOM, like `new TextDecoder('utf-8', {fatal: true, ignoreBOM:
 * true})`, but decodes with Buffer, which skips TextDecoder's fatal path for the valid frames that
 * nearly every reply waits on.
 */
class StrictUtf8Decoder extends TextDecoder {
  constructor() {
    super('utf-8', { fatal: true, ignoreBOM: true });
  }

  override decode(input?: Parameters<TextDecoder['decode']>[0], options?: { stream?: boolean }): string {
    if (options?.stream) return super.decode(input, options);
    if (!ArrayBuffer.isView(input)) return super.decode(input);
    const view = Buffer.isBuffer(input)
      ? input
      : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    const text = view.toString('utf8');
    // Buffer's decoder turns every invalid sequence into U+FFFD, so a text without one came from
    // valid UTF-8 and needs no second pass; a text with one may still be valid (the character
    // itself, bytes EF BF BD), which isUtf8 settles.
    if (text.includes('\uFFFD') && !isUtf8(view)) {
      throw new TypeError('The encoded data was not valid for encoding utf-8');
    }
    return text;
  }
}

/** The one strict decoder of the mock (stateless: safe to share). */
export const strictUtf8: TextDecoder = new StrictUtf8Decoder();

/** Exact bytes as JSON: `{text}` when they are valid UTF-8 (so they round-trip), `{base64}` otherwise. */
export function encodeBytes(bytes: Uint8Array): Bytes {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return isUtf8(view) ? { text: view.toString('utf8') } : { base64: view.toString('base64') };
}

/** The exact bytes of a `Bytes` value. */
export function decodeBytes(bytes: Bytes): Uint8Array {
  if ('text' in bytes) return new Uint8Array(Buffer.from(bytes.text, 'utf8'));
  return new Uint8Array(Buffer.from(bytes.base64, 'base64'));
}

/** An action in its recorded (JSON) form. */
export function recordAction(action: Action): RecordedAction {
  if (action.type === 'write')
    return { type: 'write', afterMs: action.afterMs, bytes: encodeBytes(action.bytes) };
  // Headers are copied so a later mutation by a shell never rewrites the record.
  if (action.type === 'head') return { ...action, headers: { ...action.headers } };
  return { ...action };
}

/** Wraps entries as the JSON document. */
export function recordingDocument(entries: readonly RecordEntry[]): RecordingDocument {
  return { format: 'ahp-mock-recording', version: 1, entries: [...entries] };
}

/** Serializes entries as the JSON document (one line, stable key order as built). */
export function recordingToJson(entries: readonly RecordEntry[]): string {
  return JSON.stringify(recordingDocument(entries));
}

/** Reads a recording document back; a sentence on failure instead of a throw. */
export function parseRecording(
  text: string,
): { ok: true; entries: RecordEntry[] } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: `the recording is not JSON (${(e as Error).message}).` };
  }
  const doc = value as Partial<RecordingDocument> | null;
  if (typeof doc !== 'object' || doc === null || doc.format !== 'ahp-mock-recording' || doc.version !== 1) {
    return { ok: false, message: 'the recording is not an ahp-mock-recording version 1 document.' };
  }
  if (!Array.isArray(doc.entries)) return { ok: false, message: 'the recording has no entries array.' };
  return { ok: true, entries: doc.entries as RecordEntry[] };
}

/** Inbound entries, optionally only those for one event id. */
export function inboundRecords(entries: readonly RecordEntry[], eventId?: string): InboundRecord[] {
  return entries.filter(
    (e): e is InboundRecord => e.type === 'inbound' && (eventId === undefined || e.eventId === eventId),
  );
}

/** Violation entries, optionally for one delivery. */
export function violationRecords(entries: readonly RecordEntry[], delivery?: number): ViolationRecord[] {
  return entries.filter(
    (e): e is ViolationRecord =>
      e.type === 'violation' && (delivery === undefined || e.delivery === delivery),
  );
}

/** Requests no rule covered (the "unplanned" ones of the unmatched strategy). */
export function unplannedRequests(entries: readonly RecordEntry[]): InboundRecord[] {
  return inboundRecords(entries).filter((e) => e.kind === 'request' && !e.planned);
}

/** The recorded actions planned for one delivery (0: process start), in order. */
export function actionsFor(entries: readonly RecordEntry[], delivery: number): RecordedAction[] {
  return entries.flatMap((e) => (e.type === 'outbound' && e.delivery === delivery ? [e.action] : []));
}

/** Every byte written for one delivery, concatenated in order (what a client received if all ran). */
export function bytesWrittenFor(entries: readonly RecordEntry[], delivery: number): Uint8Array {
  const parts = actionsFor(entries, delivery).flatMap((a) =>
    a.type === 'write' ? [decodeBytes(a.bytes)] : [],
  );
  return new Uint8Array(Buffer.concat(parts));
}
