import type { JsonValue } from './json.js';

/** Default cap on one NDJSON frame, newline excluded. Generous for events, small enough to bound memory. */
export const DEFAULT_MAX_FRAME_BYTES = 4 * 1024 * 1024;

export type FramingFaultCode = 'invalid-utf8' | 'frame-too-large' | 'not-json' | 'empty-line' | 'multi-line';

/** One complete frame, or a framing fault. Faults are values, never exceptions. */
export type NdjsonItem =
  | { kind: 'frame'; value: JsonValue; text: string; bytes: Uint8Array }
  | { kind: 'fault'; code: FramingFaultCode; message: string; bytes: Uint8Array };

export interface NdjsonDecoderOptions {
  maxFrameBytes?: number;
}

const NEWLINE = 0x0a;
const CR = 0x0d;

/**
 * Incremental NDJSON decoder. UTF-8 is decoded fatally per complete line, so a multi-byte
 * character split across chunks is fine and any invalid byte sequence is a fault. A line that
 * is whitespace-only, not JSON, or a JSON fragment of a pretty-printed object is a fault.
 */
export class NdjsonDecoder {
  private readonly maxFrameBytes: number;
  private parts: Uint8Array[] = [];
  private partBytes = 0;
  /** Set once the current line has passed the cap: its bytes are dropped until the newline. */
  private oversized = false;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

  constructor(options: NdjsonDecoderOptions = {}) {
    this.maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  }

  /** Bytes buffered for a line whose newline has not arrived yet. */
  get pendingBytes(): number {
    return this.partBytes;
  }

  /** Feeds one chunk; returns every frame or fault completed by it. */
  push(chunk: Uint8Array): NdjsonItem[] {
    const out: NdjsonItem[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) {
        this.append(chunk.subarray(start));
        return out;
      }
      this.append(chunk.subarray(start, nl));
      out.push(this.finishLine());
      start = nl + 1;
    }
  }

  /** Ends the stream: an unterminated final line is reported as a fault (a frame needs its newline). */
  end(): NdjsonItem[] {
    if (this.partBytes === 0 && !this.oversized) return [];
    const item = this.finishLine();
    if (item.kind === 'fault') return [item];
    return [
      {
        kind: 'fault',
        code: 'multi-line',
        message: 'the stream ended inside a frame (no terminating newline)',
        bytes: item.bytes,
      },
    ];
  }

  private append(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.oversized) return;
    if (this.partBytes + bytes.length > this.maxFrameBytes + 1) {
      // +1 leaves room for a CR that will be stripped.
      this.oversized = true;
      this.parts = [];
      this.partBytes = 0;
      return;
    }
    this.parts.push(bytes.slice());
    this.partBytes += bytes.length;
  }

  private takeLine(): Uint8Array {
    const line = this.parts.length === 1 ? (this.parts[0] as Uint8Array) : Buffer.concat(this.parts);
    this.parts = [];
    this.partBytes = 0;
    return line;
  }

  private finishLine(): NdjsonItem {
    if (this.oversized) {
      this.oversized = false;
      return {
        kind: 'fault',
        code: 'frame-too-large',
        message: `a frame exceeded the ${this.maxFrameBytes}-byte cap`,
        bytes: new Uint8Array(0),
      };
    }
    let bytes = this.takeLine();
    if (bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
    if (bytes.length > this.maxFrameBytes) {
      return {
        kind: 'fault',
        code: 'frame-too-large',
        message: `a frame exceeded the ${this.maxFrameBytes}-byte cap`,
        bytes: new Uint8Array(0),
      };
    }
    return decodeLine(bytes, this.decoder);
  }
}

/**
 * Decodes one line (newline already removed) into a frame or a fault. A byte-order mark is kept
 * (`ignoreBOM`), so it makes the line non-JSON here exactly as it does in `NdjsonDecoder`.
 */
export function decodeLine(
  bytes: Uint8Array,
  decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }),
): NdjsonItem {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { kind: 'fault', code: 'invalid-utf8', message: 'the line is not valid UTF-8', bytes };
  }
  if (text.trim() === '') {
    return { kind: 'fault', code: 'empty-line', message: 'an empty or whitespace-only line', bytes };
  }
  try {
    return { kind: 'frame', value: JSON.parse(text) as JsonValue, text, bytes };
  } catch {
    const trimmed = text.trim();
    // A lone brace or a `"key": value,` fragment is the mark of a pretty-printed object.
    const looksLikeFragment = /^[{[]$|^[}\]],?$|^"[^"]*"\s*:/.test(trimmed);
    return looksLikeFragment
      ? { kind: 'fault', code: 'multi-line', message: 'a line holds part of a multi-line JSON value', bytes }
      : { kind: 'fault', code: 'not-json', message: 'the line is not JSON', bytes };
  }
}

/** Serializes one JSON value as an NDJSON frame (JSON.stringify never emits a literal newline). */
export function encodeFrame(value: JsonValue | object): string {
  return `${JSON.stringify(value)}\n`;
}
